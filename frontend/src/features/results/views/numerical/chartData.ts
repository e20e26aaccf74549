import { parseLocaleNumber, type SeriesValues } from '@frametext/text-analysis';

/** One line of the chart: a point per frame, y null where the value is missing or not a number (a gap). */
export interface ChartLine {
  label: string;
  points: { x: number; y: number | null }[];
}

export interface ChartModel {
  /** 'time': x is seconds from the start; 'frame': x is the frame number (when frames have no time). */
  axis: 'time' | 'frame';
  lines: ChartLine[];
  /** True when at least one value is a number (otherwise there is nothing to draw). */
  hasNumbers: boolean;
}

/** Colours that read on the light and the dark surface alike. */
export const SERIES_COLOURS = ['#4c7bf4', '#f0772b', '#2fa84f', '#c04ed8', '#e0446f', '#14a3b8', '#d99a0b', '#7d8ba6'];

export function chartModel(times: readonly (number | null)[], series: readonly SeriesValues[]): ChartModel {
  const axis = times.length > 0 && times.every((t) => t !== null) ? 'time' : 'frame';
  const xOf = (i: number) => (axis === 'time' ? times[i]! : i + 1);
  let hasNumbers = false;
  const lines = series.map((s) => ({
    label: s.name,
    points: s.values.map((value, i) => {
      const y = value === '' ? null : parseLocaleNumber(value);
      if (y !== null) hasNumbers = true;
      return { x: xOf(i), y };
    }),
  }));
  return { axis, lines, hasNumbers };
}

/** A file name from the upload's name: characters that file systems refuse become '-'. */
export function chartFileName(uploadName: string): string {
  const base = uploadName.replace(/[\\/:*?"<>|]+/g, '-').replace(/\p{Cc}+/gu, '').trim() || 'chart';
  return `${base}-chart.png`;
}
