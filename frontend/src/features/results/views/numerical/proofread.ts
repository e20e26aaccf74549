import { seriesConfidences, unsureReasons, withCorrections, type SeriesValues, type TextBlock } from '@frametext/text-analysis';
import { correctionsOf, type CorrectionsState } from './corrections';
import type { BlockSeries } from './series';

/** A selected series as the Results to Export table proofreads it. */
export interface ProofSeries {
  /** The series' uniqueID. */
  id: number;
  row: BlockSeries;
  /** Values with the corrections applied: what the table, the chart and the exports show. */
  series: SeriesValues;
  /** The cleaned values as read, before corrections. */
  readings: readonly string[];
  confidences: readonly (number | null)[];
  corrected: readonly boolean[];
  /** Per frame, why the value is unsure (empty when it is not). */
  reasons: readonly (readonly string[])[];
}

/** One cell of the table: a series (by uniqueID) on a frame (0-based). */
export interface CellRef {
  seriesId: number;
  frame: number;
}

export function proofSeries(detections: readonly (readonly TextBlock[])[], rows: readonly BlockSeries[], corrections: CorrectionsState): ProofSeries[] {
  return rows.map((row) => {
    const own = correctionsOf(corrections, row.block.uniqueID);
    const series = withCorrections(row.values, own);
    const confidences = seriesConfidences(detections, row.points);
    const corrected = series.values.map((_, frame) => own.has(frame));
    return {
      id: row.block.uniqueID,
      row,
      series,
      readings: row.values.values,
      confidences,
      corrected,
      reasons: unsureReasons({ values: series.values, confidences, corrected }),
    };
  });
}

/** The unsure cells in the table's reading order: frame by frame, each frame's columns left to right. */
export function unsureCells(proof: readonly ProofSeries[], frameCount: number): CellRef[] {
  const cells: CellRef[] = [];
  for (let frame = 0; frame < frameCount; frame++) {
    for (const p of proof) if ((p.reasons[frame]?.length ?? 0) > 0) cells.push({ seriesId: p.id, frame });
  }
  return cells;
}

/** The unsure cell after `from` in reading order (the first one when `from` is null), wrapping round; null when none. */
export function nextUnsure(proof: readonly ProofSeries[], frameCount: number, from: CellRef | null): CellRef | null {
  const cells = unsureCells(proof, frameCount);
  if (cells.length === 0) return null;
  if (!from) return cells[0]!;
  const column = (id: number) => proof.findIndex((p) => p.id === id);
  const after = cells.find((c) => c.frame > from.frame || (c.frame === from.frame && column(c.seriesId) > column(from.seriesId)));
  return after ?? cells[0]!;
}
