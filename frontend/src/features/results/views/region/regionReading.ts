import { captionCues, filterBlocks, frameInterval, linesInBox, rectInPixels, type BlockFilters, type CaptionCue, type Rect, type RegionExportFrame } from '@frametext/text-analysis';
import type { ResultsFrame } from '../../model';

/*
 * What the Region view reads: for every frame, the lines inside each active box, after the viewer's filters.
 * Pure functions of the frames, the boxes and the filters, computed once per change (never per render).
 */

export interface Space {
  width: number;
  height: number;
}

/** One frame's lines per box (same order as `boxes`); no lines at all while the frame's size is unknown. */
export function readFrame(frame: ResultsFrame, space: Space | null, boxes: readonly Rect[], filters: BlockFilters): string[][] {
  if (!space || boxes.length === 0) return boxes.map(() => []);
  const blocks = filterBlocks(frame.detections, filters);
  return boxes.map((norm) => linesInBox(blocks, rectInPixels(norm, space.width, space.height)));
}

/** Every frame's reading, numbered from 1, as the table and the exports use it. */
export function readFrames(frames: readonly ResultsFrame[], spaceOf: (i: number) => Space | null, boxes: readonly Rect[], filters: BlockFilters): RegionExportFrame[] {
  return frames.map((frame, i) => ({ number: i + 1, t: frame.t, boxes: readFrame(frame, spaceOf(i), boxes, filters) }));
}

/** The cues of one box (its index among the active boxes): identical consecutive captions merged. */
export function boxCues(readings: readonly RegionExportFrame[], boxIndex: number): CaptionCue[] {
  // Frames without a time (photos) are taken one second apart, in order.
  const timed = readings.map((r, i) => ({ t: r.t ?? i, text: (r.boxes[boxIndex] ?? []).join('\n') }));
  return captionCues(
    timed,
    frameInterval(timed.map((f) => f.t)),
  );
}

/** The upload's name made safe as a file name (no path or reserved characters). */
export function fileSafeName(name: string): string {
  // eslint-disable-next-line no-control-regex
  const safe = name.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '-').replace(/\s+/g, ' ').trim();
  return safe || 'captions';
}

/** `<uploadName>-<colour>.srt` / `.vtt` */
export const subtitleFileName = (uploadName: string, boxName: string, ext: 'srt' | 'vtt') => `${fileSafeName(uploadName)}-${boxName.toLowerCase()}.${ext}`;

/** True when some frame has text in some box: the exports need at least one caption. */
export const hasAnyLine = (readings: readonly RegionExportFrame[]) => readings.some((r) => r.boxes.some((lines) => lines.length > 0));
