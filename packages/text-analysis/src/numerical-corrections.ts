import { proofread, seriesConfidences } from './numerical-proofreading.js';
import { withCorrections, type SeriesValues } from './numerical-export.js';
import type { TextBlock } from './geometry.js';
import type { BlockSeries } from './numerical-series.js';

/*
 * Values a person typed over the OCR's reading in the Results to Export table: one plain object, keyed by the
 * series' uniqueID and then the frame's index (0-based), holding the typed value ('' when the frame has no value).
 * It is JSON as it stands, so it can be kept with the rest of the view's work. Changed only through the reducer.
 */

export type CorrectionsState = Readonly<Record<string, Readonly<Record<string, string>>>>;

export const noCorrections: CorrectionsState = {};

export type CorrectionAction =
  | { type: 'corrected'; seriesId: number; frame: number; value: string }
  | { type: 'reverted'; seriesId: number; frame: number }
  /** Drops the corrections of series that are no longer selected (a new series may get a freed uniqueID). */
  | { type: 'seriesKept'; seriesIds: readonly number[] };

export function correctionsReducer(state: CorrectionsState, action: CorrectionAction): CorrectionsState {
  switch (action.type) {
    case 'corrected': {
      const key = String(action.seriesId);
      return { ...state, [key]: { ...state[key], [String(action.frame)]: action.value.trim() } };
    }
    case 'reverted': {
      const key = String(action.seriesId);
      const series = state[key];
      if (!series || !(String(action.frame) in series)) return state;
      const { [String(action.frame)]: _dropped, ...rest } = series;
      const { [key]: _series, ...others } = state;
      return Object.keys(rest).length > 0 ? { ...others, [key]: rest } : others;
    }
    case 'seriesKept': {
      const kept = new Set(action.seriesIds.map(String));
      const entries = Object.entries(state).filter(([id]) => kept.has(id));
      return entries.length === Object.keys(state).length ? state : Object.fromEntries(entries);
    }
  }
}

/** A series' corrections by frame index (empty when it has none). */
export function correctionsOf(state: CorrectionsState, seriesId: number): ReadonlyMap<number, string> {
  return new Map(Object.entries(state[String(seriesId)] ?? {}).map(([frame, value]) => [Number(frame), value]));
}

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
  /** Per frame, why the value is unsure (empty when it is not): blanks between values included. */
  reasons: readonly (readonly string[])[];
  /** Per frame, true where the value breaks the series' pattern (a jump, far off the values around it). */
  offPattern: readonly boolean[];
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
    const { reasons, offPattern } = proofread({ values: series.values, confidences, corrected });
    return { id: row.block.uniqueID, row, series, readings: row.values.values, confidences, corrected, reasons, offPattern };
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
