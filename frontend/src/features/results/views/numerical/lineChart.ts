import { Chart, Legend, LineController, LineElement, LinearScale, PointElement, Tooltip, type Plugin, type Scale } from 'chart.js';
import { formatClock } from '@frametext/text-analysis';
import { MARK_COLOUR, SERIES_COLOURS, type ChartMark, type ChartModel } from './chartData';

/*
 * Chart.js, loaded only when a chart is drawn (SeriesChart imports this module dynamically), so the first load of
 * the app does not carry it.
 */

Chart.register(LineController, LineElement, PointElement, LinearScale, Tooltip, Legend);

export interface ChartColours {
  text: string;
  muted: string;
  grid: string;
  background: string;
}

/** Paints the background, so the downloaded PNG is not transparent. */
const background: Plugin<'line'> = {
  id: 'frametextBackground',
  beforeDraw(chart, _args, options: { colour?: string }) {
    const { ctx, width, height } = chart;
    ctx.save();
    ctx.fillStyle = options.colour ?? '#ffffff';
    ctx.fillRect(0, 0, width, height);
    ctx.restore();
  },
};

/** How a proofreading mark is drawn (as chartSvg.ts draws it): a ring, a triangle at an edge or a dot, a cross. */
const markStyle = (mark: ChartMark) =>
  mark.kind === 'gap'
    ? { pointStyle: 'crossRot' as const, rotation: 0, filled: false }
    : mark.kind === 'unsure'
      ? { pointStyle: 'circle' as const, rotation: 0, filled: false }
      : { pointStyle: mark.clamped ? ('triangle' as const) : ('circle' as const), rotation: mark.clamped === 'bottom' ? 180 : 0, filled: true };

const markText = (mark: ChartMark) =>
  mark.kind === 'gap' ? 'no value' : mark.kind === 'unsure' ? `${mark.value} (unsure)` : `${mark.value} (${mark.clamped ? 'off the scale' : 'far off the others'})`;

export function drawLineChart(canvas: HTMLCanvasElement, model: ChartModel, colours: ChartColours): Chart<'line'> {
  const xTick = (value: number | string) => (model.axis === 'time' ? formatClock(Number(value), model.timeDecimals) : String(value));
  const axisOf = new Map(model.axes.map((axis, i) => [axis.id, { axis, scaleId: `y${i}` }]));
  // One value axis per unit, stacked in one picture. Chart.js stacks the first scale at the bottom: the scales are
  // listed last axis first, so the axis of the top series on screen is drawn on top.
  const yScales = Object.fromEntries(
    model.axes.map((axis, i) => [
      `y${i}`,
      {
        type: 'linear' as const,
        position: 'left' as const,
        stack: 'values',
        stackWeight: 1,
        offset: model.axes.length > 1,
        // The line's values decide the range; marks off the scale sit on its edge (chartData.ts).
        ...(axis.range ? { min: axis.range.min, max: axis.range.max } : {}),
        title: { display: true, text: axis.title, color: colours.muted },
        ticks: { color: colours.muted, ...(axis.isTime ? { callback: (value: number | string) => formatClock(Number(value)) } : {}) },
        grid: { color: colours.grid },
        border: { color: colours.text },
        // Chart.js gives each left axis at most half the chart's width shared by all of them, stacked or not
        // (chart.js#11746): four axes on a phone got 44 px, and `1,500` showed as `,500`. Stacked axes share one
        // column, so each may take what its labels need, up to half the chart.
        afterSetDimensions: (scale: Scale) => {
          scale.maxWidth = scale.chart.width / 2;
        },
      },
    ]).reverse(),
  );
  return new Chart(canvas, {
    type: 'line',
    data: {
      datasets: [
        ...model.lines.map((line, i) => {
          const colour = SERIES_COLOURS[i % SERIES_COLOURS.length]!;
          return {
            label: line.label,
            data: line.points,
            yAxisID: axisOf.get(line.axisId)!.scaleId,
            borderColor: colour,
            backgroundColor: colour,
            pointRadius: 2,
            borderWidth: 2,
            spanGaps: false,
          };
        }),
        // One dataset of marks per line, after all the lines (the legend lists the lines only).
        ...model.lines.map((line) => {
          const styles = line.marks.map(markStyle);
          return {
            label: `${line.label}: marks`,
            data: line.marks.map((m) => ({ x: m.x, y: m.y })),
            yAxisID: axisOf.get(line.axisId)!.scaleId,
            showLine: false,
            borderColor: MARK_COLOUR,
            pointBorderColor: MARK_COLOUR,
            pointBackgroundColor: styles.map((m) => (m.filled ? MARK_COLOUR : 'transparent')),
            pointStyle: styles.map((m) => m.pointStyle),
            pointRotation: styles.map((m) => m.rotation),
            pointRadius: 5,
            pointHoverRadius: 6,
            pointBorderWidth: 2,
          };
        }),
      ],
    },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      parsing: false,
      normalized: true,
      interaction: { mode: 'nearest', intersect: false },
      color: colours.text,
      scales: {
        x: {
          type: 'linear',
          title: { display: true, text: model.axis === 'time' ? 'Time (m:ss)' : 'Frame', color: colours.muted },
          ticks: { color: colours.muted, callback: xTick },
          grid: { color: colours.grid },
        },
        ...yScales,
      },
      plugins: {
        legend: { labels: { color: colours.text, filter: (item) => (item.datasetIndex ?? 0) < model.lines.length } },
        tooltip: {
          callbacks: {
            title: (items) => (items[0] ? xTick(items[0].parsed.x ?? 0) : ''),
            label: (item) => {
              const marked = model.lines[item.datasetIndex - model.lines.length];
              if (marked) return `${marked.label}: ${markText(marked.marks[item.dataIndex]!)}`;
              const line = model.lines[item.datasetIndex]!;
              const y = item.parsed.y ?? 0;
              return `${line.label}: ${axisOf.get(line.axisId)!.axis.isTime ? formatClock(y) : String(y)}`;
            },
          },
        },
        // Options of our own plugin; Chart.js's types know only its own plugins.
        ...({ frametextBackground: { colour: colours.background } } as object),
      },
    },
    plugins: [background],
  });
}
