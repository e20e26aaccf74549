import { orderByPosition, seriesLabel, seriesValues, type SeriesValues, type TextBlock, type Track, type TrackPoint } from '@frametext/text-analysis';
import type { SelectedBlock } from './selection';

/** A selected block with its frames and cleaned values: what the tables, the chart and the CSV show. */
export interface BlockSeries {
  block: SelectedBlock;
  points: readonly TrackPoint[];
  /** frame -> the block's position in that frame's detections. */
  indexByFrame: ReadonlyMap<number, number>;
  values: SeriesValues;
}

const NO_POINTS: readonly TrackPoint[] = [];

/** A block's frames: frozen when locked, otherwise its track's (none when tracking no longer has it). */
export function pointsOf(block: SelectedBlock, tracks: ReadonlyMap<string, Track>): readonly TrackPoint[] {
  return block.points ?? tracks.get(block.id)?.points ?? NO_POINTS;
}

// A block's series is worked out again only when the block (its settings, its lock) or its frames change.
const cache = new WeakMap<SelectedBlock, { frames: readonly (readonly TextBlock[])[]; points: readonly TrackPoint[]; series: BlockSeries }>();

export function seriesOf(frames: readonly (readonly TextBlock[])[], block: SelectedBlock, tracks: ReadonlyMap<string, Track>): BlockSeries {
  const points = pointsOf(block, tracks);
  const hit = cache.get(block);
  if (hit && hit.frames === frames && hit.points === points) return hit.series;
  const { seriesName: _name, ...cleaning } = block.settings;
  const series: BlockSeries = {
    block,
    points,
    indexByFrame: new Map(points.map((p) => [p.frame, p.index])),
    values: seriesValues(frames, points, seriesLabel(block.settings.seriesName, block.originalId), cleaning),
  };
  cache.set(block, { frames, points, series });
  return series;
}

/** Series top of the screen first (by their blocks' average height; the order picked where equal), as export.csv. */
export function inScreenOrder(rows: readonly BlockSeries[]): BlockSeries[] {
  return orderByPosition(rows.map((row) => ({ row, averageY: row.values.averageY }))).map(({ row }) => row);
}
