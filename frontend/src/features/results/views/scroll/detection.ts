import { boundsOf, WORD_OVERLAY_LIMIT, type Rect } from '@frametext/text-analysis';
import type { ResultsFrame } from '../../model';

/*
 * The Scroll view's work on frames: frame layouts, the locked template and the items on a frame are in
 * @frametext/text-analysis (scroll-detection.ts), shared with the server's export; the words outlined under the
 * template are here.
 */

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
