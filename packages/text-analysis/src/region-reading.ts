import { parseKeptWork, type RegionWork } from '@frametext/contracts';
import { captionCuesInBox } from './caption-reading.js';
import type { Rect } from './geometry.js';
import { activeBoxes, fitRect, initialBoxes, type BoxId, type SelectionBox } from './region-boxes.js';
import type { RegionExportFrame } from './region-export.js';
import { linesInBox, rectInPixels } from './region-text.js';
import { exportFileName, type ResultsFrame } from './results-frames.js';
import type { CaptionCue } from './subtitles.js';
import { defaultCaptionBox, zonesOfFrames } from './text-zones.js';
import { blockLimits, filterBlocks, openFilters, type BlockFilters } from './viewer-filters.js';
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

/** `<upload name>-<colour>.srt` / `.vtt` */
export const subtitleFileName = (uploadName: string, boxName: string, ext: 'srt' | 'vtt') => exportFileName(uploadName, boxName.toLowerCase(), ext);

/** True when some frame has text in some box: the exports need at least one caption. */
export const hasAnyLine = (readings: readonly RegionExportFrame[]) => readings.some((r) => r.boxes.some((lines) => lines.length > 0));

/*
 * The Region view's kept work: each box on or off and where, the selected box, and the filters. A new
 * piece of state is kept by adding it here, in both functions, and to regionWorkSchema in @frametext/contracts.
 */

export function regionWork(boxes: readonly SelectionBox[], selected: BoxId, filters: BlockFilters): RegionWork {
  return {
    version: 1,
    boxes: boxes.map((b) => ({ id: b.id, enabled: b.enabled, norm: b.norm ? { ...b.norm } : null })),
    selected,
    filters: { minConfidence: filters.minConfidence, length: { ...filters.length }, area: { ...filters.area } },
  };
}

export interface RestoredRegion {
  boxes: SelectionBox[];
  selected: BoxId;
  filters: BlockFilters;
}

/** The kept work as the view's state (names and colours from the four boxes), or null when there is none. */
export function restoreRegionWork(kept: unknown): RestoredRegion | null {
  const work = parseKeptWork('region', kept);
  if (!work) return null;
  const boxes = initialBoxes().map((box) => {
    const saved = work.boxes.find((b) => b.id === box.id);
    return saved ? { ...box, enabled: saved.enabled && saved.norm !== null, norm: saved.norm ? fitRect(saved.norm) : null } : box;
  });
  return { boxes, selected: work.selected, filters: work.filters };
}

/** What the Region view's exports hold: the enabled boxes, every frame's lines per box, and each box's captions. */
export interface RegionReading {
  boxes: (SelectionBox & { norm: Rect })[];
  readings: RegionExportFrame[];
  cues: CaptionCue[][];
}

/**
 * The Region view's reading for the person's kept work (null: none kept, so the first box on the band where the
 * upload's captions come and go, as the view opens: defaultCaptionBox, with the filters open): the same boxes, filters, lines and cues the view's exports use.
 */
export function keptRegionReading(frames: readonly ResultsFrame[], spaceOf: (i: number) => Space | null, kept: unknown): RegionReading {
  const restored = restoreRegionWork(kept);
  const boxes = activeBoxes(restored?.boxes ?? initialBoxes(defaultCaptionBox(zonesOfFrames(frames, spaceOf))));
  const filters = restored?.filters ?? openFilters(blockLimits(frames.map((f) => f.detections)));
  const rects = boxes.map((b) => b.norm);
  return { boxes, readings: readFrames(frames, spaceOf, rects, filters), cues: boxCues(frames, spaceOf, rects, filters) };
}
