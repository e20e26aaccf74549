import { captionCuesInBox, filterBlocks, linesInBox, rectInPixels, type BlockFilters, type CaptionCue, type Rect, type RegionExportFrame } from '@frametext/text-analysis';
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

/**
 * The captions of each box as subtitle cues (one per caption, specks and flicker left out: captionCuesInBox), after
 * the viewer's filters; same order as `boxes`.
 */
export function boxCues(frames: readonly ResultsFrame[], spaceOf: (i: number) => Space | null, boxes: readonly Rect[], filters: BlockFilters): CaptionCue[][] {
  const sources = frames.map((frame, i) => ({ t: frame.t, blocks: frame.detections, space: spaceOf(i) }));
  return boxes.map((box) => captionCuesInBox(sources, box, filters));
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
