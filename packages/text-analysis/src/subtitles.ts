/*
 * Captions as subtitle files. Frames come at an interval; a caption that stays the same over several frames is
 * one cue from the first of those frames until the next frame that shows something else (or, at the end of the
 * list, until one interval after the last frame). Frames without text end the cue before them and start none.
 */

export interface CaptionFrame {
  /** Seconds from the start of the video. */
  t: number;
  /** What the caption box holds on this frame; lines separated by line breaks. */
  text: string;
}

export interface CaptionCue {
  start: number;
  end: number;
  text: string;
}

/** Trimmed lines without blank ones and with inner runs of spaces made single: the form captions are compared in. */
function tidy(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

/**
 * The usual gap between frames in seconds: the median of the positive gaps, or `fallback` (1 s) with fewer than two
 * distinct times.
 */
export function frameInterval(times: readonly number[], fallback = 1): number {
  const gaps: number[] = [];
  for (let i = 1; i < times.length; i++) {
    const gap = times[i]! - times[i - 1]!;
    if (gap > 0) gaps.push(gap);
  }
  if (gaps.length === 0) return fallback;
  gaps.sort((a, b) => a - b);
  const mid = Math.floor(gaps.length / 2);
  return gaps.length % 2 ? gaps[mid]! : (gaps[mid - 1]! + gaps[mid]!) / 2;
}

/** Cues from frames in time order: consecutive identical captions merged, blank frames leaving a gap. */
export function captionCues(frames: readonly CaptionFrame[], interval: number): CaptionCue[] {
  const cues: CaptionCue[] = [];
  let open: { start: number; text: string } | null = null;
  for (const frame of frames) {
    const text = tidy(frame.text);
    if (open && text === open.text) continue;
    if (open) cues.push({ ...open, end: frame.t });
    open = text ? { start: frame.t, text } : null;
  }
  const last = frames[frames.length - 1];
  if (open && last) cues.push({ ...open, end: last.t + interval });
  // Two frames with one time would make an empty cue; give it the interval instead.
  return cues.map((c) => (c.end > c.start ? c : { ...c, end: c.start + interval }));
}

function clock(seconds: number, separator: ',' | '.'): string {
  const ms = Math.max(0, Math.round(seconds * 1000));
  const pad = (n: number, width = 2) => String(n).padStart(width, '0');
  const h = Math.floor(ms / 3_600_000);
  const m = Math.floor((ms % 3_600_000) / 60_000);
  const s = Math.floor((ms % 60_000) / 1000);
  return `${pad(h)}:${pad(m)}:${pad(s)}${separator}${pad(ms % 1000, 3)}`;
}

/** HH:MM:SS,mmm */
export const srtTime = (seconds: number) => clock(seconds, ',');
/** HH:MM:SS.mmm */
export const vttTime = (seconds: number) => clock(seconds, '.');

/** An arrow inside cue text would read as a timing line to some players. */
const noArrows = (text: string) => text.replace(/-->/g, '->');

/** A SubRip file: numbered cues, each with its timing line and text, separated by blank lines. */
export function toSrt(cues: readonly CaptionCue[]): string {
  return cues.map((c, i) => `${i + 1}\n${srtTime(c.start)} --> ${srtTime(c.end)}\n${noArrows(c.text)}\n`).join('\n');
}

const escapeVtt = (text: string) => noArrows(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A WebVTT file: the WEBVTT header, then each cue's timing line and text (with &, < and > escaped). */
export function toVtt(cues: readonly CaptionCue[]): string {
  const body = cues.map((c) => `${vttTime(c.start)} --> ${vttTime(c.end)}\n${escapeVtt(c.text)}\n`).join('\n');
  return body ? `WEBVTT\n\n${body}` : 'WEBVTT\n';
}
