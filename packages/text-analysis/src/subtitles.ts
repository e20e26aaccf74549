import { textSimilarity } from './text-similarity.js';

/*
 * Captions as subtitle files. Frames come at an interval, and OCR reads one caption a little differently from
 * frame to frame. Cues are made in three steps:
 * 1. Runs: consecutive frames whose readings are the same caption (sameCaption: most of the shorter reading's
 *    characters are in words the other reading also has, spelt alike) form a run; a blank frame ends it.
 * 2. Flicker: a run of one frame is dropped unless its words were read with CUE_SINGLE_FRAME_CONFIDENCE or more
 *    on average (a short caption the interval caught once is kept; a reading that flashes in and out is not).
 *    Readings without a confidence count as sure.
 * 3. Gaps: two runs of the same caption with at most CUE_MAX_MISSED_FRAMES frames between them (a frame OCR missed,
 *    or a flicker just dropped) are one cue.
 * A cue runs from the first frame its caption was seen on to the first later frame where it is gone (one interval
 * after the last frame, at the end of the list), and says the run's reading that best agrees with all the others
 * (typicalReading).
 */

export interface CaptionFrame {
  /** Seconds from the start of the video. */
  t: number;
  /** What the caption box holds on this frame; lines separated by line breaks. */
  text: string;
  /** The mean confidence (0..100) of the reading's words, when known. */
  confidence?: number;
}

export interface CaptionCue {
  start: number;
  end: number;
  text: string;
}

export const CUE_SINGLE_FRAME_CONFIDENCE = 90;
export const CUE_MAX_MISSED_FRAMES = 1;
/** Share of the shorter reading's characters that must be in matching words for two readings to be one caption. */
export const SAME_CAPTION_SHARE = 0.6;
/** Two words match when they are at least this similar. */
const WORD_SIMILARITY = 0.7;

/** Trimmed lines without blank ones and with inner runs of spaces made single: the form captions are kept in. */
function tidy(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}

/** Lower-case words of letters and digits: what two readings of a caption are compared on. */
const wordsOf = (text: string) => text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];

/**
 * The characters of `a`'s words that have a match among `b`'s (a word at least 70% similar, counted by how similar),
 * as a share of all of `a`'s word characters.
 */
function coveredShare(a: readonly string[], b: readonly string[]): number {
  const total = a.reduce((n, w) => n + w.length, 0);
  if (total === 0) return 0;
  let covered = 0;
  for (const w of a) {
    const best = b.reduce((m, v) => Math.max(m, v === w ? 1 : textSimilarity(v, w)), 0);
    if (best >= WORD_SIMILARITY) covered += best * w.length;
  }
  return covered / total;
}

/**
 * True when two readings are the same caption: at least 60% of the characters of the shorter one's words are in
 * words the other has, spelt alike (70% similar). A reading that caught one line of a two-line caption, or half
 * a line, is still that caption.
 */
export function sameCaption(a: string, b: string): boolean {
  const x = wordsOf(a);
  const y = wordsOf(b);
  const [shorter, longer] = x.join('').length <= y.join('').length ? [x, y] : [y, x];
  return coveredShare(shorter, longer) >= SAME_CAPTION_SHARE;
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

interface Run {
  /** Indexes into the frame list, in order. */
  frames: number[];
}

/**
 * The reading that best agrees with all the others: for each other reading, how much of it this one holds plus
 * 0.4 of how much of this one it holds (coveredShare both ways), summed. A reading that missed a word loses on the
 * first part, one with a speck glued on on the second; missing words weigh more, as specks were mostly dropped
 * before (caption-reading.ts). Ties go to the surer, then the longer.
 */
const HELD_BACK_WEIGHT = 0.4;
function typicalReading(readings: readonly { text: string; confidence?: number }[]): string {
  // Each distinct text once, with how often it was read and its surest reading: a caption on screen for minutes is
  // mostly read the same, so this stays quick.
  const distinct = new Map<string, { text: string; confidence: number; count: number; words: string[] }>();
  for (const r of readings) {
    const seen = distinct.get(r.text);
    if (seen) {
      seen.count++;
      seen.confidence = Math.max(seen.confidence, r.confidence ?? 100);
    } else distinct.set(r.text, { text: r.text, confidence: r.confidence ?? 100, count: 1, words: wordsOf(r.text) });
  }
  const options = [...distinct.values()];
  let best = options[0]!;
  let bestScore = -1;
  for (const r of options) {
    const score = options.reduce((sum, o) => sum + o.count * (coveredShare(o.words, r.words) + HELD_BACK_WEIGHT * coveredShare(r.words, o.words)), 0);
    const tie = Math.abs(score - bestScore) <= 1e-9;
    if (score > bestScore + 1e-9 || (tie && (r.confidence > best.confidence || (r.confidence === best.confidence && r.text.length > best.text.length)))) {
      best = r;
      bestScore = score;
    }
  }
  return best.text;
}

/** Cues from frames in time order (see the rules at the top of this file). */
export function captionCues(frames: readonly CaptionFrame[], interval: number): CaptionCue[] {
  const texts = frames.map((f) => tidy(f.text));
  // 1. Runs of one caption.
  const runs: Run[] = [];
  let open: Run | null = null;
  texts.forEach((text, i) => {
    if (!text) {
      open = null;
      return;
    }
    if (open && open.frames.slice(-3).some((j) => sameCaption(texts[j]!, text))) open.frames.push(i);
    else runs.push((open = { frames: [i] }));
  });
  // 2. Flicker.
  const sure = (i: number) => (frames[i]!.confidence ?? 100) >= CUE_SINGLE_FRAME_CONFIDENCE;
  const steady = runs.filter((r) => r.frames.length > 1 || sure(r.frames[0]!));
  // 3. Runs of one caption across a missed frame.
  const merged: Run[] = [];
  for (const run of steady) {
    const prev = merged[merged.length - 1];
    const lastSeen = prev?.frames[prev.frames.length - 1];
    const missed = lastSeen === undefined ? Infinity : run.frames[0]! - lastSeen - 1;
    if (prev && missed <= CUE_MAX_MISSED_FRAMES && sameCaption(texts[lastSeen!]!, texts[run.frames[0]!]!)) prev.frames.push(...run.frames);
    else merged.push({ frames: [...run.frames] });
  }
  return merged.map((run) => {
    const first = run.frames[0]!;
    const last = run.frames[run.frames.length - 1]!;
    const start = frames[first]!.t;
    const next = frames[last + 1]?.t;
    const end = next !== undefined && next > frames[last]!.t ? next : frames[last]!.t + interval;
    const text = typicalReading(run.frames.map((i) => ({ text: texts[i]!, confidence: frames[i]!.confidence })));
    return { start, end: end > start ? end : start + interval, text };
  });
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
