import { clockDecimals, fileNameBase, seriesNumbers, type SeriesValues } from '@frametext/text-analysis';

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
}

/** One line of the chart: a point per frame, y null where the value is missing or not a number (a gap). */
export interface ChartLine {
  label: string;
  axisId: string;
  points: { x: number; y: number | null }[];
}

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

/** Colours that read on the light and the dark surface alike. */
export const SERIES_COLOURS = ['#4c7bf4', '#f0772b', '#2fa84f', '#c04ed8', '#e0446f', '#14a3b8', '#d99a0b', '#7d8ba6'];

export function chartModel(times: readonly (number | null)[], series: readonly SeriesValues[]): ChartModel {
  const axis = times.length > 0 && times.every((t) => t !== null) ? 'time' : 'frame';
  const xOf = (i: number) => (axis === 'time' ? times[i]! : i + 1);
  const axes: ChartAxis[] = [];
  const axisFor = (key: string, title: string, isTime: boolean): string => {
    const found = axes.find((a) => a.id === key);
    if (!found) axes.push({ id: key, title, isTime });
    return key;
  };
  let hasNumbers = false;
  const lines = series.map((s, i) => {
    const { isTime, ys } = seriesNumbers(s.values);
    if (ys.some((y) => y !== null)) hasNumbers = true;
    const axisId = isTime ? axisFor('time', 'Time (m:ss)', true) : s.unit ? axisFor(`unit:${s.unit.toLowerCase()}`, s.unit, false) : axisFor(`series:${i}`, s.name, false);
    return { label: s.name, axisId, points: ys.map((y, j) => ({ x: xOf(j), y })) };
  });
  return { axis, timeDecimals: axis === 'time' ? clockDecimals(times) : 0, axes, lines, hasNumbers };
}

/** A file name from the upload's name: characters that file systems refuse become '-'. */
export function chartFileName(uploadName: string, extension: 'png' | 'svg' = 'png'): string {
  return `${fileNameBase(uploadName, 'chart')}-chart.${extension}`;
}
