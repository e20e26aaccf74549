import { parseKeptWork, type NumericalWork } from '@frametext/contracts';
import type { TextBlock, TrackingSettings } from '@frametext/text-analysis';
import type { CorrectionsState } from './corrections';
import type { SelectionState } from './selection';

/*
 * The Numerical view's kept work (issue 16): the tracking settings and the selected series with their names,
 * cleaning and locks, and the corrections typed while proofreading. Everything the selection reducer holds in `blocks` is kept, so series added any other way
 * (a button that picks them) are kept too. A new piece of state is kept by adding it here, in both functions, and
 * to numericalWorkSchema in @frametext/contracts.
 */

export function numericalWork(blocks: SelectionState['blocks'], tracking: TrackingSettings, corrections: CorrectionsState): NumericalWork {
  // Without corrections the document is the one kept before proofreading existed, so opening such work saves nothing.
  return { version: 1, tracking: { ...tracking }, blocks: blocks.map((b) => ({ ...b, settings: { ...b.settings } })), ...(Object.keys(corrections).length > 0 ? { corrections } : {}) };
}

export interface RestoredNumerical {
  selection: SelectionState;
  tracking: TrackingSettings;
  corrections: CorrectionsState;
}

/**
 * The kept work as the view's state, or null when there is none (or it is not a shape this code reads). A locked
 * series keeps only the frames the upload has (its frozen points name a frame and a block on it).
 */
export function restoreNumericalWork(kept: unknown, frames: readonly (readonly TextBlock[])[]): RestoredNumerical | null {
  const work = parseKeptWork('numerical', kept);
  if (!work) return null;
  const exists = (p: { frame: number; index: number }) => p.index < (frames[p.frame]?.length ?? 0);
  const blocks = work.blocks.map((b) => {
    if (!b.points) return b;
    const points = b.points.filter(exists);
    return { ...b, points, total: points.length === b.points.length ? b.total : points.length };
  });
  return { selection: { blocks, editing: null }, tracking: work.tracking, corrections: work.corrections ?? {} };
}
