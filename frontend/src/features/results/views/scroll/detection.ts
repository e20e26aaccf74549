import {
  boundsOf,
  findItemsInFrame,
  layoutLines,
  makeScrollTemplate,
  placeTemplate,
  WORD_OVERLAY_LIMIT,
  type LayoutLine,
  type ListItemMatch,
  type Rect,
  type ScrollSettings,
  type ScrollTemplate,
} from '@frametext/text-analysis';
import type { Space } from '../../components/FrameStage';
import type { ResultsFrame } from '../../model';
import { boxInPixels } from './templateBox';

/*
 * The Scroll view's work on frames: each frame's layout (computed once per frame and kept), the locked template,
 * and the items one frame holds.
 */

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

/** The template as locked: its signature, the frame it was drawn on, the box (0..1) and that frame's size. */
export interface LockedTemplate {
  template: ScrollTemplate;
  frameIndex: number;
  box: Rect;
  space: Space;
}

/** Locks the box on a frame; null when the box holds no text there. */
export function lockTemplate(frame: ResultsFrame, box: Rect, space: Space): LockedTemplate | null {
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

export interface WordBox {
  text: string;
  rect: Rect;
}

const wordBoxes = new WeakMap<ResultsFrame, WordBox[]>();

/** The frame's words (or blocks without words) to outline faintly under the template: at most 800. */
export function frameWords(frame: ResultsFrame): WordBox[] {
  let boxes = wordBoxes.get(frame);
  if (!boxes) {
    boxes = [];
    outer: for (const d of frame.detections) {
      const parts = d.words?.length ? d.words : [d];
      for (const p of parts) {
        if (boxes.length >= WORD_OVERLAY_LIMIT) break outer;
        if (p.text.trim()) boxes.push({ text: p.text, rect: boundsOf(p.vertices) });
      }
    }
    wordBoxes.set(frame, boxes);
  }
  return boxes;
}
