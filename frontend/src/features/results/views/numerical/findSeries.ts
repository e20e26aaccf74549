import { findNumberSeries, type FoundSeries, type TextBlock, type Track } from '@frametext/text-analysis';
import { newUniqueID, type FoundBlock, type SelectedBlock } from './selection';
import { pointsOf } from './series';

/*
 * The Numerical view's "Find the numbers": the series findNumberSeries (text-analysis) finds on the current tracking,
 * less those already selected, as one 'found' action, and the sentence that tells the person what happened.
 */

export interface FindOutcome {
  /** The blocks to add (none when nothing new was found). */
  series: FoundBlock[];
  message: string;
}

const key = (frame: number, index: number) => `${frame}:${index}`;

/**
 * New series on `tracks`: a track that shares a frame's block with a selected series (locked or not) is that series
 * already, so a second click adds nothing twice; names in use are not given again.
 */
export function findNewSeries(
  frames: readonly (readonly TextBlock[])[],
  tracks: readonly Track[],
  trackById: ReadonlyMap<string, Track>,
  selected: readonly { block: SelectedBlock; name: string }[],
  random: () => number = Math.random,
): FindOutcome {
  const used = new Set(selected.flatMap(({ block }) => pointsOf(block, trackById).map((p) => key(p.frame, p.index))));
  const excludeTrackIds = new Set(tracks.filter((t) => t.points.some((p) => used.has(key(p.frame, p.index)))).map((t) => t.id));
  const found: FoundSeries[] = findNumberSeries(frames, tracks, { excludeTrackIds, takenNames: selected.map((s) => s.name) });
  const ids: { uniqueID: number }[] = selected.map((s) => s.block);
  const series = found.map((f): FoundBlock => {
    const uniqueID = newUniqueID(ids, random);
    ids.push({ uniqueID });
    return { originalId: f.trackIds[0]!, points: f.points, settings: f.settings, uniqueID };
  });
  return { series, message: outcomeMessage(series, selected.length > 0) };
}

function outcomeMessage(series: readonly FoundBlock[], someSelected: boolean): string {
  if (series.length > 0) return `Found ${series.length} series: ${series.map((s) => s.settings.seriesName).join(', ')}. Each is locked; edit, unlock or remove it below.`;
  if (someSelected) return 'No new series found; the ones already selected stay as they are.';
  return 'No numbers that change over the video were found. Click a box on the frame to pick a block yourself.';
}
