import { parseKeptWork, type ScrollWork } from '@frametext/contracts';
import type { Rect } from './geometry.js';
import type { ResultsFrame, ResultsSource } from './results-frames.js';
import { deduplicateItems, type ListItem } from './scroll-duplicates.js';
import { listItemsCsv, listItemsText, SCROLL_EXPORT_FILES } from './scroll-export.js';
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
 * The Scroll view's kept work (issue 16): the template box, where it was locked, the settings and Ignore
 * duplicates. A locked template keeps the frame, box and frame size it was locked with, and its layout is read
 * from that frame again on restore (the same rule gives the same template). Detected items are not kept: Detect
 * Items finds them again in seconds. A new piece of state is kept by adding it here, in both functions, and to
 * scrollWorkSchema in @frametext/contracts.
 */

export function scrollWork(box: Rect, locked: LockedTemplate | null, settings: ScrollSettings, ignoreDuplicates: boolean): ScrollWork {
  return {
    version: 1,
    box: { ...box },
    locked: locked ? { frameIndex: locked.frameIndex, box: { ...locked.box }, space: { ...locked.space } } : null,
    settings: { ...settings },
    ignoreDuplicates,
  };
}

export interface RestoredScroll {
  box: Rect;
  locked: LockedTemplate | null;
  settings: ScrollSettings;
  ignoreDuplicates: boolean;
}

/** The kept work as the view's state, or null when there is none; a template whose frame holds no text stays unlocked. */
export function restoreScrollWork(kept: unknown, frames: readonly ResultsFrame[]): RestoredScroll | null {
  const work = parseKeptWork('scroll', kept);
  if (!work) return null;
  const frame = work.locked ? frames[work.locked.frameIndex] : undefined;
  const locked = work.locked && frame ? lockTemplate(frame, work.locked.box, work.locked.space) : null;
  return { box: locked?.box ?? work.box, locked, settings: work.settings, ignoreDuplicates: work.ignoreDuplicates };
}

/** The list a scroll export saves: the unique items, or every item found with its unique number. */
export interface ScrollList {
  items: readonly ListItem[];
  ignoreDuplicates: boolean;
}

/** The list's file as "Export CSV" and "Export TXT" save it (the Time column only for a video). */
export function scrollListFile(source: Pick<ResultsSource, 'format' | 'frames'>, list: ScrollList, format: 'csv' | 'txt'): { fileName: string; text: string } {
  const { items, ignoreDuplicates } = list;
  if (format === 'txt') return { fileName: ignoreDuplicates ? SCROLL_EXPORT_FILES.uniqueTxt : SCROLL_EXPORT_FILES.allTxt, text: listItemsText(items) };
  const times = source.format === 'Video' ? source.frames.map((f) => f.t) : [];
  return { fileName: ignoreDuplicates ? SCROLL_EXPORT_FILES.uniqueCsv : SCROLL_EXPORT_FILES.allCsv, text: listItemsCsv(items, { times, withUniqueColumn: !ignoreDuplicates }) };
}

/**
 * The list Detect Items gives for the person's kept work, every frame scanned with the locked template; null when
 * the work has no locked template (nothing kept, or the template was never locked), so there is no list yet.
 */
export function keptScrollList(frames: readonly ResultsFrame[], kept: unknown): ScrollList | null {
  const restored = restoreScrollWork(kept, frames);
  if (!restored?.locked) return null;
  const { locked, settings } = restored;
  const result = deduplicateItems(frames.flatMap((frame) => itemsOnFrame(frame, locked, settings)), settings.duplicateThreshold);
  return { items: restored.ignoreDuplicates ? result.unique : result.all, ignoreDuplicates: restored.ignoreDuplicates };
}
