import type { TextAnnotationJson, TextSegmentJson } from '@frametext/contracts';
import { DEFAULT_TRACKING_SETTINGS, TRACKING_LIMITS, trackBlocks, type TrackPoint } from './block-tracking.js';
import { normaliseConfidence, type TextBlock } from './geometry.js';
import { comparableText, similarAsWritten } from './text-similarity.js';

/*
 * Text detection in the shape of Google Video Intelligence (TextAnnotation, google.cloud.videointelligence.v1):
 * each text once, with the segments of time it is on screen, and per frame its box and time.
 *
 * The grouping over time is the Numerical view's tracking (trackBlocks, with the view's default settings): a block
 * is followed from frame to frame by its place and its text. A track is then cut wherever its text changes: a
 * different number ("21%" after "20%"), or a text less than 75% alike as written (a new slide's title at the old one's
 * place). Each piece is one segment, named by the reading most of its frames gave, so one misread frame does not
 * make a text of its own; the segments of the same text, wherever it appears, make one annotation.
 *
 * A segment starts at the first frame that shows the text and ends at the next frame read after the last one that
 * does (the video's end after the last frame): a text on screen for 3 s, sampled every second, spans 3 s.
 */

/** One frame as the annotations read it. */
export interface AnnotatedFrame {
  /** Seconds from the start of the video; null when unknown (then the frame's place times the interval). */
  t: number | null;
  detections: readonly TextBlock[];
  /** The frame's pixel size, which the vertices are in; null when unknown (the frame then gives no boxes). */
  size: { width: number; height: number } | null;
}

export interface AnnotationOptions {
  /** Seconds between frames, for frames without a time and the end of the last segment when the length is unknown. */
  intervalSeconds: number;
  /** The video's length in seconds, when known: the end of a segment that lasts to the last frame. */
  durationSeconds?: number | null;
}

/**
 * Two readings of one track are the same text from this similarity on: the lowest the tracking's requirement goes
 * (its place already matched, so a misread letter or two must not cut it; a new text there is far less alike).
 */
const SAME_TEXT = TRACKING_LIMITS.similarity.min / 100;

/** proto3 JSON of a google.protobuf.Duration, to the millisecond: "3s", "1.500s". */
export function durationJson(seconds: number): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const whole = Math.floor(ms / 1000);
  const rest = ms % 1000;
  return rest === 0 ? `${whole}s` : `${whole}.${String(rest).padStart(3, '0')}s`;
}

const round = (v: number) => Math.round(v * 1e6) / 1e6;
const digitsOf = (text: string) => text.replace(/\D+/g, ' ').trim();

/** Two readings of one track are the same text: the same numbers, and alike as written. */
function sameText(a: string, b: string): boolean {
  return digitsOf(a) === digitsOf(b) && similarAsWritten(comparableText(a), comparableText(b), SAME_TEXT);
}

/** The reading most points give (ties: the first of them). */
function mostRead(texts: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const t of texts) counts.set(t, (counts.get(t) ?? 0) + 1);
  let best = texts[0]!;
  for (const t of texts) if (counts.get(t)! > counts.get(best)!) best = t;
  return best;
}

/** Cuts a track's points wherever the text changes (sameText with the previous point). */
function runsOf(points: readonly TrackPoint[], textAt: (p: TrackPoint) => string): TrackPoint[][] {
  const runs: TrackPoint[][] = [];
  for (const p of points) {
    const run = runs.at(-1);
    if (run && sameText(textAt(run.at(-1)!), textAt(p))) run.push(p);
    else runs.push([p]);
  }
  return runs;
}

/** The annotations of an upload's frames, in order of first appearance (then top to bottom, left to right). */
export function videoTextAnnotations(frames: readonly AnnotatedFrame[], options: AnnotationOptions): TextAnnotationJson[] {
  const { intervalSeconds, durationSeconds } = options;
  const timeOf = (frame: number) => frames[frame]?.t ?? frame * intervalSeconds;
  const endAfter = (frame: number) => {
    if (frame + 1 < frames.length) return timeOf(frame + 1);
    const last = timeOf(frame);
    return durationSeconds != null && durationSeconds > last ? durationSeconds : last + intervalSeconds;
  };
  const blockAt = (p: TrackPoint) => frames[p.frame]!.detections[p.index]!;
  const textAt = (p: TrackPoint) => blockAt(p).text.trim();

  const { tracks } = trackBlocks(
    frames.map((f) => f.detections),
    DEFAULT_TRACKING_SETTINGS,
  );
  const byText = new Map<string, { order: [number, number, number]; segments: { start: number; segment: TextSegmentJson }[] }>();
  for (const track of tracks) {
    for (const run of runsOf(track.points, textAt)) {
      const text = mostRead(run.map(textAt));
      const first = run[0]!;
      const last = run.at(-1)!;
      const confidences = run.map((p) => blockAt(p).confidence).filter((c): c is number => c !== undefined && Number.isFinite(c));
      const segment: TextSegmentJson = {
        segment: { startTimeOffset: durationJson(timeOf(first.frame)), endTimeOffset: durationJson(endAfter(last.frame)) },
        // Google's: the highest over the frames that show it, 0..1.
        ...(confidences.length > 0 ? { confidence: round(Math.min(1, Math.max(...confidences.map(normaliseConfidence)) / 100)) } : {}),
        frames: run.map((p) => {
          const size = frames[p.frame]!.size;
          const box = size && size.width > 0 && size.height > 0 ? { rotatedBoundingBox: { vertices: blockAt(p).vertices.map((v) => ({ x: round(v.x / size.width), y: round(v.y / size.height) })) } } : {};
          return { ...box, timeOffset: durationJson(timeOf(p.frame)) };
        }),
      };
      const top = Math.min(...blockAt(first).vertices.map((v) => v.y));
      const left = Math.min(...blockAt(first).vertices.map((v) => v.x));
      const entry = byText.get(text);
      if (entry) entry.segments.push({ start: timeOf(first.frame), segment });
      else byText.set(text, { order: [timeOf(first.frame), top, left], segments: [{ start: timeOf(first.frame), segment }] });
    }
  }
  return [...byText.entries()]
    .sort(([, a], [, b]) => a.order[0] - b.order[0] || a.order[1] - b.order[1] || a.order[2] - b.order[2])
    .map(([text, { segments }]) => ({ text, segments: segments.sort((a, b) => a.start - b.start).map((s) => s.segment) }));
}
