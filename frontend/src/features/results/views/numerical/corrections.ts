/*
 * Values a person typed over the OCR's reading in the Results to Export table: one plain object, keyed by the
 * series' uniqueID and then the frame's index (0-based), holding the typed value ('' when the frame has no value).
 * It is JSON as it stands, so it can be kept with the rest of the view's work. Changed only through the reducer;
 * withCorrections (text-analysis) applies a series' corrections to its values.
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
