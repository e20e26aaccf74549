import { clockDecimals, exportFileName, seriesNumbers, type ProofSeries, type SeriesValues } from '@frametext/text-analysis';

export { seriesNumbers };

/**
 * A value axis of the chart. Series that show the same unit share one ("%", "kW"); series of times (11:12) share a
 * time-valued one; a series without a unit gets its own. The axes are stacked one above the other, so a 150 kW
 * series never flattens a 0-100 % one.
 */
export interface ChartAxis {
  id: string;
  title: string;
  /** Values are seconds, shown as m:ss. */
  isTime: boolean;
  /** The values it shows, padded; values off their series' pattern are left out, so a 3722 among 37s does not flatten the line. */
  range: { min: number; max: number } | null;
}

/**
 * A cell the proofreading marks, drawn over the line: an unsure value on it; a value off the series' pattern, left
 * out of the line and drawn at its value, or at the axis' edge when it is off the scale (`clamped`); a frame
 * without a value between two values (a gap), at the bottom edge.
 */
export interface ChartMark {
  kind: 'unsure' | 'outlier' | 'gap';
  x: number;
  y: number;
  /** The value as the table shows it ('' for a gap). */
  value: string;
  clamped: 'top' | 'bottom' | null;
}

/** One line of the chart: a point per frame, y null where the value is missing, not a number, or off the pattern (a gap). */
export interface ChartLine {
  label: string;
  axisId: string;
  points: { x: number; y: number | null }[];
  marks: ChartMark[];
}

/** What proofreading says of a series' cells, frame by frame. */
export interface SeriesCells {
  unsure: readonly boolean[];
  /** A jump or a value far off the others: drawn apart from the line. */
  offPattern: readonly boolean[];
}

export const cellsOf = (p: Pick<ProofSeries, 'reasons' | 'offPattern'>): SeriesCells => ({ unsure: p.reasons.map((r) => r.length > 0), offPattern: p.offPattern });

export interface ChartModel {
  /** 'time': x is seconds from the start; 'frame': x is the frame number (when frames have no time). */
  axis: 'time' | 'frame';
  /** Digits after the second's point on the time axis (as the tables show the frame times). */
  timeDecimals: number;
  axes: ChartAxis[];
  lines: ChartLine[];
  /** True when at least one value is a number (otherwise there is nothing to draw). */
  hasNumbers: boolean;
}

/** The unsure values' orange, as in the table. */
export const MARK_COLOUR = '#f08c00';

/** Colours that read on the light and the dark surface alike. */
export const SERIES_COLOURS = ['#4c7bf4', '#f0772b', '#2fa84f', '#c04ed8', '#e0446f', '#14a3b8', '#d99a0b', '#7d8ba6'];

/** A round step (1, 2 or 5 times a power of ten) for about `count` ticks over `span`. */
export function niceStep(span: number, count: number): number {
  const raw = span / count;
  const power = 10 ** Math.floor(Math.log10(raw));
  return ([1, 2, 5, 10].find((m) => m * power >= raw) ?? 10) * power;
}

/**
 * A range around the values, widened a little so lines do not run along its edges (and a flat line sits
 * mid-panel); a number axis' range then ends on round ticks, so a mark clamped to it sits on the panel's edge.
 */
export function paddedRange(values: readonly number[], isTime = false): { min: number; max: number } | null {
  if (values.length === 0) return null;
  const [low, high] = [Math.min(...values), Math.max(...values)];
  const pad = low === high ? Math.abs(low) * 0.1 || 1 : (high - low) * 0.05;
  const [min, max] = [low - pad, high + pad];
  if (isTime) return { min, max };
  const step = niceStep(max - min, 4);
  const round = (v: number) => Number(v.toPrecision(12));
  return { min: round(Math.floor(min / step) * step), max: round(Math.ceil(max / step) * step) };
}

/**
 * The chart of the series over time, one value axis per unit. With the proofreading's `cells` (one per series), a
 * value off its series' pattern is left out of the line and of its axis' range and drawn as a mark, unsure values
 * and gaps are marked too.
 */
export function chartModel(times: readonly (number | null)[], series: readonly SeriesValues[], cells: readonly SeriesCells[] = []): ChartModel {
  const axis = times.length > 0 && times.every((t) => t !== null) ? 'time' : 'frame';
  const xOf = (i: number) => (axis === 'time' ? times[i]! : i + 1);
  const axes: ChartAxis[] = [];
  const axisFor = (key: string, title: string, isTime: boolean): string => {
    const found = axes.find((a) => a.id === key);
    if (!found) axes.push({ id: key, title, isTime, range: null });
    return key;
  };
  let hasNumbers = false;
  const drawn = series.map((s, i) => {
    const { isTime, ys } = seriesNumbers(s.values);
    if (ys.some((y) => y !== null)) hasNumbers = true;
    const axisId = isTime ? axisFor('time', 'Time (m:ss)', true) : s.unit ? axisFor(`unit:${s.unit.toLowerCase()}`, s.unit, false) : axisFor(`series:${i}`, s.name, false);
    const off = cells[i]?.offPattern ?? [];
    return { s, axisId, ys, off, unsure: cells[i]?.unsure ?? [] };
  });
  for (const a of axes) {
    const on = drawn.filter((d) => d.axisId === a.id);
    const inLine = on.flatMap((d) => d.ys.filter((y, j): y is number => y !== null && !d.off[j]));
    a.range = paddedRange(inLine.length > 0 ? inLine : on.flatMap((d) => d.ys.filter((y): y is number => y !== null)), a.isTime);
  }
  const lines = drawn.map(({ s, axisId, ys, off, unsure }): ChartLine => {
    const range = axes.find((a) => a.id === axisId)!.range;
    const marks: ChartMark[] = [];
    ys.forEach((y, j) => {
      const x = xOf(j);
      if (!unsure[j] && !off[j]) return;
      if (y === null) {
        if (range && s.values[j] === '') marks.push({ kind: 'gap', x, y: range.min, value: '', clamped: 'bottom' });
        return;
      }
      const clamped = range && off[j] ? (y > range.max ? 'top' : y < range.min ? 'bottom' : null) : null;
      const at = clamped === 'top' ? range!.max : clamped === 'bottom' ? range!.min : y;
      marks.push({ kind: off[j] ? 'outlier' : 'unsure', x, y: at, value: s.values[j]!, clamped });
    });
    return { label: s.name, axisId, points: ys.map((y, j) => ({ x: xOf(j), y: off[j] ? null : y })), marks };
  });
  return { axis, timeDecimals: axis === 'time' ? clockDecimals(times) : 0, axes, lines, hasNumbers };
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** What the orange marks on the chart stand for, with their counts; null when there are none. */
export function marksCaption(model: ChartModel): string | null {
  const marks = model.lines.flatMap((l) => l.marks);
  const count = (kind: string) => marks.filter((m) => m.kind === kind).length;
  const parts = [
    count('outlier') > 0 && `${plural(count('outlier'), 'value', 'values')} far off the others, left out of the line (a triangle at the edge when off the scale)`,
    count('gap') > 0 && `${plural(count('gap'), 'frame', 'frames')} without a value (a cross on the bottom edge; the line breaks there)`,
    count('unsure') > 0 && `${plural(count('unsure'), 'unsure value', 'unsure values')} (a ring)`,
  ].filter((p): p is string => typeof p === 'string');
  return parts.length > 0 ? `Marked in orange: ${parts.join('; ')}.` : null;
}

/** A file name from the upload's name: characters that file systems refuse become '-'. */
export function chartFileName(uploadName: string, extension: 'png' | 'svg' = 'png'): string {
  return exportFileName(uploadName, 'chart', extension);
}
