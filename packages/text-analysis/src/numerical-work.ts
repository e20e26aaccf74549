import { parseKeptWork, type NumericalWork } from '@frametext/contracts';
import { DEFAULT_TRACKING_SETTINGS, trackBlocks, type Track, type TrackingSettings } from './block-tracking.js';
import type { TextBlock } from './geometry.js';
import { noCorrections, proofSeries, type CorrectionsState, type ProofSeries } from './numerical-corrections.js';
import { findNewSeries, inScreenOrder, lockedFoundBlock, seriesOf, type SelectedBlock } from './numerical-series.js';
import { seededRandom } from './seeded-random.js';

/*
 * The Numerical view's kept work: the tracking settings and the selected series with their names,
 * cleaning and locks, and the corrections typed while proofreading. Everything the selection holds in `blocks` is
 * kept, so series added any other way (a button that picks them) are kept too. A new piece of state is kept by
 * adding it here, in both functions, and to numericalWorkSchema in @frametext/contracts.
 */

export function numericalWork(blocks: readonly SelectedBlock[], tracking: TrackingSettings, corrections: CorrectionsState): NumericalWork {
  // Without corrections the document is the one kept before proofreading existed, so opening such work saves nothing.
  return { version: 1, tracking: { ...tracking }, blocks: blocks.map((b) => ({ ...b, settings: { ...b.settings } })), ...(Object.keys(corrections).length > 0 ? { corrections } : {}) };
}

export interface RestoredNumericalWork {
  blocks: SelectedBlock[];
  tracking: TrackingSettings;
  corrections: CorrectionsState;
}

/**
 * The kept work as the view's state, or null when there is none (or it is not a shape this code reads). A locked
 * series keeps only the frames the upload has (its frozen points name a frame and a block on it).
 */
export function restoreNumericalWork(kept: unknown, frames: readonly (readonly TextBlock[])[]): RestoredNumericalWork | null {
  const work = parseKeptWork('numerical', kept);
  if (!work) return null;
  const exists = (p: { frame: number; index: number }) => p.index < (frames[p.frame]?.length ?? 0);
  const blocks = work.blocks.map((b) => {
    if (!b.points) return b;
    const points = b.points.filter(exists);
    return { ...b, points, total: points.length === b.points.length ? b.total : points.length };
  });
  return { blocks, tracking: work.tracking, corrections: work.corrections ?? {} };
}

/** The seed of the ids Find the numbers gives series in an export, so the same upload exports the same ids. */
export const EXPORT_SERIES_SEED = 17;

/**
 * The series the Numerical view shows for the person's kept work (null: none kept), as corrected, top of the
 * screen first: what its exports hold. With no series selected (nothing kept, or every series removed), the series
 * that one click on Find the numbers adds, on the kept tracking settings (the defaults when nothing is kept).
 */
export function keptNumericalSeries(frames: readonly (readonly TextBlock[])[], kept: unknown): ProofSeries[] {
  const restored = restoreNumericalWork(kept, frames);
  const tracking = trackBlocks(frames, restored?.tracking ?? DEFAULT_TRACKING_SETTINGS);
  const tracks = new Map<string, Track>(tracking.tracks.map((t) => [t.id, t]));
  let blocks = restored?.blocks ?? [];
  if (blocks.length === 0) blocks = findNewSeries(frames, tracking.tracks, tracks, [], seededRandom(EXPORT_SERIES_SEED)).series.map(lockedFoundBlock);
  const rows = inScreenOrder(blocks.map((b) => seriesOf(frames, b, tracks)));
  return proofSeries(frames, rows, restored?.corrections ?? noCorrections);
}
