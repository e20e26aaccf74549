import { parseKeptWork, type ScrollWork } from '@frametext/contracts';
import type { Rect } from './geometry.js';
import type { ResultsFrame, ResultsSource } from './results-frames.js';
import { applyListEdits, deduplicateItems, hasScrollEdits, NO_SCROLL_EDITS, type ListItem, type ScrollEdits } from './scroll-duplicates.js';
import { listItemsCsv, listItemsText, scrollFileName } from './scroll-export.js';
import { layoutLines, type LayoutLine } from './scroll-layout.js';
import { findItemsInFrame, makeScrollTemplate, placeTemplate, type ListItemMatch, type ScrollSettings, type ScrollTemplate } from './scroll-matching.js';

/*
 * The Scroll view's work on frames: each frame's layout (computed once per frame and kept), the locked template,
 * the items one frame holds, the kept work, and the list's CSV and TXT files. Shared by the browser and the
 * server's export.
 */

export interface FrameSpace {
  width: number;
  height: number;
}

const layouts = new WeakMap<ResultsFrame, LayoutLine[]>();

/** The frame's text as lines with segments, computed on first use and kept for the frame's lifetime. */
export function frameLayout(frame: ResultsFrame): LayoutLine[] {
  let lines = layouts.get(frame);
  if (!lines) {
    lines = layoutLines(frame.detections);
    layouts.set(frame, lines);
  }
  return lines;
}

/** The box (0..1 of the frame) in a frame's pixels. */
export function boxInPixels(box: Rect, space: FrameSpace): Rect {
  return { x: box.x * space.width, y: box.y * space.height, w: box.w * space.width, h: box.h * space.height };
}

/** The template as locked: its signature, the frame it was drawn on, the box (0..1) and that frame's size. */
export interface LockedTemplate {
  template: ScrollTemplate;
  frameIndex: number;
  box: Rect;
  space: FrameSpace;
}

/** Locks the box on a frame; null when the box holds no text there. */
export function lockTemplate(frame: ResultsFrame, box: Rect, space: FrameSpace): LockedTemplate | null {
  const template = makeScrollTemplate(frameLayout(frame), boxInPixels(box, space));
  return template ? { template, frameIndex: frame.index, box: { ...box }, space: { ...space } } : null;
}

/**
 * The items on one frame, inside its edges. A frame without its own size is taken to be the template frame's size
 * (the frames of a video all are); a frame of another size gets the template placed on it.
 */
export function itemsOnFrame(frame: ResultsFrame, locked: LockedTemplate, settings: ScrollSettings): ListItemMatch[] {
  const space = frame.space ?? locked.space;
  const sameSize = space.width === locked.space.width && space.height === locked.space.height;
  const template = sameSize ? locked.template : placeTemplate(locked.template, boxInPixels(locked.box, space));
  return findItemsInFrame(template, frameLayout(frame), frame.index, settings, space.height);
}

/*
 * The Scroll view's kept work: the template box, where it was locked, the settings, Ignore duplicates,
 * and the detection settings of the last Detect Items while its results are shown, with the person's corrections
 * to the list (edited, removed and merged rows). A locked template keeps the
 * frame, box and frame size it was locked with, and its layout is read from that frame again on restore (the same
 * rule gives the same template); with the detection settings, the view runs Detect Items again on open and shows
 * the same items (they are a function of the frames, the template and those settings, so storing them would only
 * spend the size limit). A new piece of state is kept by adding it here, in both functions, and to
 * scrollWorkSchema in @frametext/contracts.
 */

/** The settings Detect Items ran with (the duplicate threshold applies to its results, so it is not one of them). */
export type DetectionSettings = Pick<ScrollSettings, 'linePositionTolerance' | 'lineCountTolerance' | 'minSimilarity'>;

export const detectionSettingsOf = ({ linePositionTolerance, lineCountTolerance, minSimilarity }: ScrollSettings): DetectionSettings => ({
  linePositionTolerance,
  lineCountTolerance,
  minSimilarity,
});

/** `detected`: the detection settings while Detect Items' results are shown (or under way), else null. */
export function scrollWork(
  box: Rect,
  locked: LockedTemplate | null,
  settings: ScrollSettings,
  ignoreDuplicates: boolean,
  detected: DetectionSettings | null,
  edits: ScrollEdits = NO_SCROLL_EDITS,
): ScrollWork {
  return {
    version: 1,
    box: { ...box },
    locked: locked ? { frameIndex: locked.frameIndex, box: { ...locked.box }, space: { ...locked.space } } : null,
    settings: { ...settings },
    ignoreDuplicates,
    // Left out, not null, without results: work kept before detection was kept reads the same and is not saved again.
    ...(locked && detected ? { detected: { ...detected } } : {}),
    ...(locked && detected && hasScrollEdits(edits) ? { edits: structuredClone(edits) } : {}),
  };
}

export interface RestoredScroll {
  box: Rect;
  locked: LockedTemplate | null;
  settings: ScrollSettings;
  ignoreDuplicates: boolean;
  /** Detect Items to run again on open (with the locked template), or null. */
  detected: DetectionSettings | null;
  /** The person's corrections to the list found. */
  edits: ScrollEdits;
}

/** The kept work as the view's state, or null when there is none; a template whose frame holds no text stays unlocked. */
export function restoreScrollWork(kept: unknown, frames: readonly ResultsFrame[]): RestoredScroll | null {
  const work = parseKeptWork('scroll', kept);
  if (!work) return null;
  const frame = work.locked ? frames[work.locked.frameIndex] : undefined;
  const locked = work.locked && frame ? lockTemplate(frame, work.locked.box, work.locked.space) : null;
  return { box: locked?.box ?? work.box, locked, settings: work.settings, ignoreDuplicates: work.ignoreDuplicates, detected: locked ? (work.detected ?? null) : null, edits: (locked && work.edits) || NO_SCROLL_EDITS };
}

/** The list a scroll export saves: the unique items, or every item found with its unique number. */
export interface ScrollList {
  items: readonly ListItem[];
  ignoreDuplicates: boolean;
}

/** The list's file as "Export CSV" and "Export TXT" save it (the Time column only for a video). */
export function scrollListFile(source: Pick<ResultsSource, 'format' | 'frames' | 'uploadName'>, list: ScrollList, format: 'csv' | 'txt'): { fileName: string; text: string } {
  const { items, ignoreDuplicates } = list;
  const fileName = scrollFileName(source.uploadName, ignoreDuplicates, format);
  if (format === 'txt') return { fileName, text: listItemsText(items) };
  const times = source.format === 'Video' ? source.frames.map((f) => f.t) : [];
  return { fileName, text: listItemsCsv(items, { times, withUniqueColumn: !ignoreDuplicates }) };
}

/**
 * The list Detect Items gives for the person's kept work, every frame scanned with the locked template; null when
 * the work has no locked template (nothing kept, or the template was never locked), so there is no list yet.
 */
export function keptScrollList(frames: readonly ResultsFrame[], kept: unknown): ScrollList | null {
  const restored = restoreScrollWork(kept, frames);
  if (!restored?.locked) return null;
  // The settings the person's last Detect Items ran with, when kept: the list they saw.
  const settings = { ...restored.settings, ...restored.detected };
  const { locked } = restored;
  const result = applyListEdits(deduplicateItems(frames.flatMap((frame) => itemsOnFrame(frame, locked, settings)), settings.duplicateThreshold), restored.edits);
  return { items: restored.ignoreDuplicates ? result.unique : result.all, ignoreDuplicates: restored.ignoreDuplicates };
}
