import { Chart, Legend, LineController, LineElement, LinearScale, PointElement, Tooltip, type Plugin } from 'chart.js';
import { formatClock } from '@frametext/text-analysis';
import { SERIES_COLOURS, type ChartModel } from './chartData';

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

export function drawLineChart(canvas: HTMLCanvasElement, model: ChartModel, colours: ChartColours): Chart<'line'> {
  const tick = (value: number | string) => (model.axis === 'time' ? formatClock(Number(value)) : String(value));
  return new Chart(canvas, {
    type: 'line',
    data: {
      datasets: model.lines.map((line, i) => {
        const colour = SERIES_COLOURS[i % SERIES_COLOURS.length]!;
        return { label: line.label, data: line.points, borderColor: colour, backgroundColor: colour, pointRadius: 2, borderWidth: 2, spanGaps: false };
      }),
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
          ticks: { color: colours.muted, callback: tick },
          grid: { color: colours.grid },
        },
        y: {
          type: 'linear',
          title: { display: true, text: 'Value', color: colours.muted },
          ticks: { color: colours.muted },
          grid: { color: colours.grid },
        },
      },
      plugins: {
        legend: { labels: { color: colours.text } },
        tooltip: { callbacks: { title: (items) => (items[0] ? tick(items[0].parsed.x ?? 0) : '') } },
        // Options of our own plugin; Chart.js's types know only its own plugins.
        ...({ frametextBackground: { colour: colours.background } } as object),
      },
    },
    plugins: [background],
  });
}
