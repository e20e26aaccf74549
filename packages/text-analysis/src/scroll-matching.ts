import type { Rect } from './geometry.js';
import { linesInColumn, type LayoutLine } from './scroll-layout.js';

/*
 * Scroll view: finds every item of a scrolled list by its layout. The user boxes ONE list item on one frame (the
 * template); its signature is the layout of the lines inside the box: where each line sits vertically, how many
 * lines there are, and how many segments each line has (a title, a price at the right...). A window the size of
 * the box then slides down every frame, in the box's column, and each position is scored against the signature.
 */

/** The Scroll view's detection settings, in percent (the sliders' units). */
export interface ScrollSettings {
  /** How far (share of the template's height) a line may sit from where the template has it. */
  linePositionTolerance: number;
  /** How far (share of the template's line count) the number of lines may differ before it costs score. */
  lineCountTolerance: number;
  /** The lowest overall score a window needs to count as an item. */
  minSimilarity: number;
  /** Items whose texts are at least this similar to an item already found are the same list item. */
  duplicateThreshold: number;
}

/** The spec's slider ranges and steps. */
export const SCROLL_SETTING_RANGES = {
  linePositionTolerance: { min: 1, max: 30, step: 1 },
  lineCountTolerance: { min: 10, max: 50, step: 5 },
  minSimilarity: { min: 30, max: 100, step: 5 },
  duplicateThreshold: { min: 50, max: 100, step: 5 },
} as const satisfies Record<keyof ScrollSettings, { min: number; max: number; step: number }>;

/**
 * Defaults (the spec leaves them open): a line may move 10% of the item's height (OCR boxes wobble by a few
 * pixels); 30% more or fewer lines still count as the same line count (2 lines against 3 do not); a window needs 70%
 * overall, the same bar the spec sets for the signature; texts 85% alike are the same item read twice.
 */
export const DEFAULT_SCROLL_SETTINGS: Readonly<ScrollSettings> = {
  linePositionTolerance: 10,
  lineCountTolerance: 30,
  minSimilarity: 70,
  duplicateThreshold: 85,
};

/** Scan step: the larger of 5 px and 30% of the template's smallest line spacing. */
export const MIN_SCAN_STEP_PX = 5;
export const SCAN_STEP_SHARE_OF_SPACING = 0.3;
/** A window is an item only when its signature matches at least this well. */
export const SIGNATURE_ACCEPT = 0.7;
/** Score = 0.5 signature + 0.3 line count + 0.2 segment count. */
export const SCORE_WEIGHTS = { signature: 0.5, lineCount: 0.3, segmentCount: 0.2 } as const;
/** The most word boxes a frame overlay draws. */
export const WORD_OVERLAY_LIMIT = 800;

/** A line of the template, placed relative to the template's box (0..1 of its width and height). */
export interface TemplateLine {
  text: string;
  /** Vertical centre. */
  relY: number;
  relLeft: number;
  relRight: number;
  segments: number;
}

export interface ScrollTemplate {
  /** The box the user drew, in the template frame's pixels. */
  rect: Rect;
  lines: TemplateLine[];
  /** Smallest distance between neighbouring line centres (a single line: its height), in the rect's pixels. */
  minLineSpacing: number;
}

/** Lines whose vertical centre lies in [top, bottom] (lines sorted by centre). */
function linesBetween(lines: readonly LayoutLine[], top: number, bottom: number): LayoutLine[] {
  return lines.filter((l) => l.centreY >= top && l.centreY <= bottom);
}

/**
 * The template of the lines inside `rect` (a line is inside when its segments' centres are in the box's column and
 * its vertical centre in the box); null when the box holds no text.
 */
export function makeScrollTemplate(frameLines: readonly LayoutLine[], rect: Rect): ScrollTemplate | null {
  if (rect.w <= 0 || rect.h <= 0) return null;
  const inside = linesBetween(linesInColumn(frameLines, rect.x, rect.x + rect.w), rect.y, rect.y + rect.h);
  if (inside.length === 0) return null;
  let spacing = Infinity;
  for (let i = 1; i < inside.length; i++) {
    const gap = inside[i]!.centreY - inside[i - 1]!.centreY;
    if (gap > 0) spacing = Math.min(spacing, gap);
  }
  if (!Number.isFinite(spacing)) spacing = Math.max(1, ...inside.map((l) => l.bottom - l.top));
  return {
    rect: { ...rect },
    minLineSpacing: spacing,
    lines: inside.map((l) => ({
      text: l.text,
      relY: (l.centreY - rect.y) / rect.h,
      relLeft: (l.left - rect.x) / rect.w,
      relRight: (l.right - rect.x) / rect.w,
      segments: l.segments.length,
    })),
  };
}

/** The same template on a frame of another size: the box moved to `rect`, the spacing scaled with its height. */
export function placeTemplate(template: ScrollTemplate, rect: Rect): ScrollTemplate {
  return { ...template, rect: { ...rect }, minLineSpacing: (template.minLineSpacing * rect.h) / template.rect.h };
}

export function scanStep(template: ScrollTemplate): number {
  return Math.max(MIN_SCAN_STEP_PX, SCAN_STEP_SHARE_OF_SPACING * template.minLineSpacing);
}

export interface WindowScore {
  /** Share of the template's lines found at their place (0..1). */
  signature: number;
  /** 1 when the line count is within the tolerance, otherwise the smaller count over the larger. */
  lineCount: number;
  /** How well the matched lines' segment counts agree, over the larger line count (0..1). */
  segmentCount: number;
  /** 0.5 signature + 0.3 line count + 0.2 segment count. */
  score: number;
  accepted: boolean;
  /** Mean distance of the matched lines from their places (share of the height): breaks ties between windows. */
  offset: number;
  /** Mean signed distance (share of the height; positive: the lines sit lower than the template's). */
  shift: number;
}

/** Lines whose centres are further apart than this share of the box's width are in different columns. */
export const MAX_CENTRE_SHIFT = 0.25;

/**
 * Whether a window's line stands where a template line stands across the box: one of its edges or its centre lines
 * up with the template line's (left-aligned titles grow to the right, right-aligned prices to the left), and its
 * centre is not far off. So a price at the right never stands in for a title at the left, nor a full-width line of
 * a paragraph for a price.
 */
function sameColumn(t: TemplateLine, line: LayoutLine, rect: Rect, tolerance: number): boolean {
  const left = (line.left - rect.x) / rect.w;
  const right = (line.right - rect.x) / rect.w;
  const centreShift = Math.abs((left + right) / 2 - (t.relLeft + t.relRight) / 2);
  const aligned = Math.abs(left - t.relLeft) <= tolerance || Math.abs(right - t.relRight) <= tolerance || centreShift <= tolerance;
  return aligned && centreShift <= MAX_CENTRE_SHIFT;
}

/**
 * Scores the lines of one window (its top-left at `rect.x, top`) against the template. Template lines are matched
 * in order, each to the nearest unmatched window line that sits within the position tolerance (a share of the box's
 * height) and in the same column (see sameColumn; the same tolerance as a share of its width).
 */
export function scoreWindow(template: ScrollTemplate, lines: readonly LayoutLine[], top: number, settings: ScrollSettings): WindowScore {
  const { rect } = template;
  const tolerance = settings.linePositionTolerance / 100;
  const used = new Set<number>();
  let matched = 0;
  let segmentAgreement = 0;
  let offsets = 0;
  let shifts = 0;
  for (const t of template.lines) {
    let best = -1;
    let bestDistance = Infinity;
    let bestShift = 0;
    lines.forEach((line, i) => {
      if (used.has(i)) return;
      const shift = (line.centreY - top) / rect.h - t.relY;
      const distance = Math.abs(shift);
      if (distance <= tolerance + 1e-9 && distance < bestDistance && sameColumn(t, line, rect, tolerance)) {
        best = i;
        bestDistance = distance;
        bestShift = shift;
      }
    });
    if (best < 0) continue;
    used.add(best);
    matched++;
    offsets += bestDistance;
    shifts += bestShift;
    const segments = lines[best]!.segments.length;
    segmentAgreement += Math.min(segments, t.segments) / Math.max(segments, t.segments);
  }
  const expected = template.lines.length;
  const found = lines.length;
  const signature = expected > 0 ? matched / expected : 0;
  const countDifference = Math.abs(found - expected) / Math.max(1, expected);
  const lineCount = countDifference <= settings.lineCountTolerance / 100 + 1e-9 ? 1 : Math.min(found, expected) / Math.max(found, expected, 1);
  const segmentCount = segmentAgreement / Math.max(expected, found, 1);
  const score = SCORE_WEIGHTS.signature * signature + SCORE_WEIGHTS.lineCount * lineCount + SCORE_WEIGHTS.segmentCount * segmentCount;
  const accepted = signature >= SIGNATURE_ACCEPT && score + 1e-9 >= settings.minSimilarity / 100;
  return { signature, lineCount, segmentCount, score, accepted, offset: matched > 0 ? offsets / matched : 1, shift: matched > 0 ? shifts / matched : 0 };
}

/** An item found on a frame, before duplicates are looked for. */
export interface ListItemMatch {
  frameIndex: number;
  /** The window that matched, in the frame's pixels. */
  bounds: Rect;
  /** The item's lines, top to bottom. */
  texts: string[];
  /** How many lines it has. */
  lines: number;
  /** Its score, 0..1. */
  similarity: number;
  /** The OCR's mean confidence of its lines, 0..100, when the engine gives one. */
  confidence?: number;
}

/** The mean confidence of the lines that have one, as an optional field. */
function confidenceOf(lines: readonly LayoutLine[]): { confidence?: number } {
  const given = lines.flatMap((l) => (l.confidence === undefined ? [] : [l.confidence]));
  return given.length === 0 ? {} : { confidence: given.reduce((sum, c) => sum + c, 0) / given.length };
}

interface Candidate {
  top: number;
  lines: LayoutLine[];
  score: number;
  offset: number;
  shift: number;
}

/** Two windows are the same find when they share a line or overlap by more than half their height. */
function sameFind(a: Candidate, b: Candidate, height: number): boolean {
  const overlap = Math.min(a.top, b.top) + height - Math.max(a.top, b.top);
  return overlap > height / 2 || a.lines.some((l) => b.lines.includes(l));
}

/**
 * Every item on one frame. The window keeps the template's column and size and moves down in scan steps laid on
 * the template's own position (so the template frame finds its item exactly), from where the first line could
 * enter the window to where the last line leaves it. Given the frame's height, windows stay inside the frame: an
 * item cut by the top or bottom edge is left out (OCR reads a half-hidden line as noise), and a scrolling list shows
 * it whole on another frame. Without the height, windows may reach past the edges. Accepted windows that overlap are
 * reduced to the best-scoring one (on a tie, the one whose lines sit closest to their places), and its box is then
 * moved by the matched lines' mean distance from their places, so it sits on the item as the template sat on its
 * own. Items come top to bottom.
 */
export function findItemsInFrame(
  template: ScrollTemplate,
  frameLines: readonly LayoutLine[],
  frameIndex: number,
  settings: ScrollSettings,
  frameHeight?: number,
): ListItemMatch[] {
  const { rect } = template;
  const column = linesInColumn(frameLines, rect.x, rect.x + rect.w).sort((a, b) => a.centreY - b.centreY);
  if (column.length === 0 || template.lines.length === 0) return [];
  const step = scanStep(template);
  const first = column[0]!.centreY - rect.h;
  const last = column[column.length - 1]!.centreY;
  let startK = Math.ceil((first - rect.y) / step);
  let endK = Math.floor((last - rect.y) / step);
  if (frameHeight !== undefined) {
    startK = Math.max(startK, Math.ceil(-rect.y / step - 1e-9));
    endK = Math.min(endK, Math.floor((frameHeight - rect.h - rect.y) / step + 1e-9));
  }

  const accepted: Candidate[] = [];
  let from = 0;
  for (let k = startK; k <= endK; k++) {
    const top = rect.y + k * step;
    while (from < column.length && column[from]!.centreY < top) from++;
    const inWindow: LayoutLine[] = [];
    for (let i = from; i < column.length && column[i]!.centreY <= top + rect.h; i++) inWindow.push(column[i]!);
    if (inWindow.length === 0) continue;
    const result = scoreWindow(template, inWindow, top, settings);
    if (result.accepted) accepted.push({ top, lines: inWindow, score: result.score, offset: result.offset, shift: result.shift });
  }

  const kept: Candidate[] = [];
  for (const c of accepted.sort((a, b) => b.score - a.score || a.offset - b.offset || a.top - b.top)) {
    if (!kept.some((k) => sameFind(k, c, rect.h))) kept.push(c);
  }
  return kept
    .sort((a, b) => a.top - b.top)
    .map((c) => ({
      frameIndex,
      // Hundredths of a pixel: enough, and no float noise (-8.9e-16) in the exports.
      bounds: { x: rect.x, y: Math.round((c.top + c.shift * rect.h) * 100) / 100 + 0, w: rect.w, h: rect.h },
      texts: c.lines.map((l) => l.text),
      lines: c.lines.length,
      similarity: c.score,
      ...confidenceOf(c.lines),
    }));
}
