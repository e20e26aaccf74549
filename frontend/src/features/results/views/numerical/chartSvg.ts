import { formatClock } from '@frametext/text-analysis';
import { MARK_COLOUR, niceStep, SERIES_COLOURS, type ChartMark, type ChartModel } from './chartData';
import type { ChartColours } from './lineChart';

/*
 * The chart as a standalone SVG document, for "Download chart (SVG)" and, rasterised, "(PNG)": the same picture as
 * the view's chart (one panel per value axis, stacked, top series first; a shared x axis of time or frames; the
 * theme's colours on its own background), drawn with attributes only, so it renders anywhere without the page's
 * styles. A missing value breaks its line: the line never joins across a gap, and a value alone between two gaps
 * shows as a dot. Proofreading's marks are drawn in orange over the lines, as in the view (ChartMark).
 */

export const CHART_SVG_WIDTH = 960;
const MARGIN = { left: 84, right: 24, top: 16, bottom: 56 };
const PANEL_HEIGHT = 200;
const PANEL_GAP = 28;
const LEGEND_ROW = 22;
const FONT = 'font-family="system-ui, -apple-system, Segoe UI, Roboto, sans-serif"';

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const num = (v: number) => String(Math.round(v * 100) / 100);

/** About `count` round tick values covering min..max (1, 2 or 5 times a power of ten apart; or clock steps for times). */
export function niceTicks(min: number, max: number, count: number, isTime = false): number[] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return [];
  if (min === max) return [min];
  const raw = (max - min) / count;
  let step: number;
  const clockSteps = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200];
  if (isTime && raw >= 1) step = clockSteps.find((s) => s >= raw) ?? Math.ceil(raw / 3600) * 3600;
  else step = niceStep(max - min, count);
  const ticks: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  return ticks;
}

/** A proofreading mark at (x, y) in the picture: a ring, a triangle at an edge or a dot, a cross for a gap. */
function markSvg(mark: ChartMark, x: number, y: number, series: string): string {
  const at = `data-mark="${mark.kind}" data-series="${escapeXml(series)}"`;
  const stroke = `stroke="${MARK_COLOUR}" stroke-width="2"`;
  if (mark.kind === 'gap') {
    const [cx, cy] = [x, y - 6];
    return `<path d="M${num(cx - 4)} ${num(cy - 4)}L${num(cx + 4)} ${num(cy + 4)}M${num(cx - 4)} ${num(cy + 4)}L${num(cx + 4)} ${num(cy - 4)}" ${stroke} ${at}/>`;
  }
  if (mark.kind === 'unsure') return `<circle cx="${num(x)}" cy="${num(y)}" r="5" fill="none" ${stroke} ${at}/>`;
  if (mark.clamped === 'top') return `<path d="M${num(x)} ${num(y + 1)}L${num(x + 6)} ${num(y + 11)}L${num(x - 6)} ${num(y + 11)}Z" fill="${MARK_COLOUR}" ${at}/>`;
  if (mark.clamped === 'bottom') return `<path d="M${num(x)} ${num(y - 1)}L${num(x + 6)} ${num(y - 11)}L${num(x - 6)} ${num(y - 11)}Z" fill="${MARK_COLOUR}" ${at}/>`;
  return `<circle cx="${num(x)}" cy="${num(y)}" r="5" fill="${MARK_COLOUR}" ${at}/>`;
}

/** The legend's rows: names laid left to right, wrapping at the chart's width (text width estimated). */
function legendRows(labels: readonly string[], width: number): { label: string; index: number; x: number; row: number }[] {
  const items: { label: string; index: number; x: number; row: number }[] = [];
  let x = 0;
  let row = 0;
  labels.forEach((label, index) => {
    const w = 22 + label.length * 7.2 + 18;
    if (x > 0 && x + w > width) {
      row++;
      x = 0;
    }
    items.push({ label, index, x, row });
    x += w;
  });
  return items;
}

export function chartSvgSize(model: ChartModel): { width: number; height: number } {
  const legend = legendRows(
    model.lines.map((l) => l.label),
    CHART_SVG_WIDTH - MARGIN.left - MARGIN.right,
  );
  const legendHeight = ((legend.at(-1)?.row ?? 0) + 1) * LEGEND_ROW + 8;
  const panels = Math.max(1, model.axes.length);
  return { width: CHART_SVG_WIDTH, height: MARGIN.top + legendHeight + panels * PANEL_HEIGHT + (panels - 1) * PANEL_GAP + MARGIN.bottom };
}

export function chartSvg(model: ChartModel, colours: ChartColours, title: string): string {
  const { width, height } = chartSvgSize(model);
  const plotWidth = width - MARGIN.left - MARGIN.right;
  const legend = legendRows(
    model.lines.map((l) => l.label),
    plotWidth,
  );
  const legendHeight = ((legend.at(-1)?.row ?? 0) + 1) * LEGEND_ROW + 8;
  const top = MARGIN.top + legendHeight;
  const colourOf = (i: number) => SERIES_COLOURS[i % SERIES_COLOURS.length]!;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img">`);
  out.push(`<title>${escapeXml(title)}</title>`);
  out.push(`<rect x="0" y="0" width="${width}" height="${height}" fill="${escapeXml(colours.background)}"/>`);

  legend.forEach(({ label, index, x, row }) => {
    const lx = MARGIN.left + x;
    const ly = MARGIN.top + row * LEGEND_ROW + 10;
    out.push(`<rect x="${num(lx)}" y="${ly - 5}" width="16" height="10" fill="${colourOf(index)}"/>`);
    out.push(`<text x="${num(lx + 22)}" y="${ly + 4}" ${FONT} font-size="13" fill="${escapeXml(colours.text)}">${escapeXml(label)}</text>`);
  });

  const xs = model.lines.flatMap((l) => l.points.map((p) => p.x));
  const xMin = xs.length ? Math.min(...xs) : 0;
  const xMax = xs.length ? Math.max(...xs) : 1;
  const xSpan = xMax - xMin || 1;
  const xPos = (x: number) => MARGIN.left + ((x - xMin) / xSpan) * plotWidth;
  const xLabel = (x: number) => (model.axis === 'time' ? formatClock(x, model.timeDecimals) : num(x));
  const bottom = height - MARGIN.bottom;

  model.axes.forEach((axis, panel) => {
    const panelTop = top + panel * (PANEL_HEIGHT + PANEL_GAP);
    const panelBottom = panelTop + PANEL_HEIGHT;
    const lines = model.lines.map((line, index) => ({ line, index })).filter(({ line }) => line.axisId === axis.id);
    if (!axis.range) return;
    const { min, max } = axis.range;
    const yPos = (y: number) => panelBottom - ((y - min) / (max - min)) * PANEL_HEIGHT;
    for (const tick of niceTicks(min, max, 4, axis.isTime)) {
      const y = num(yPos(tick));
      out.push(`<line x1="${MARGIN.left}" y1="${y}" x2="${width - MARGIN.right}" y2="${y}" stroke="${escapeXml(colours.grid)}" stroke-width="1"/>`);
      const text = axis.isTime ? formatClock(tick) : num(tick);
      out.push(`<text x="${MARGIN.left - 8}" y="${y}" dy="4" text-anchor="end" ${FONT} font-size="12" fill="${escapeXml(colours.muted)}">${escapeXml(text)}</text>`);
    }
    out.push(`<line x1="${MARGIN.left}" y1="${panelTop}" x2="${MARGIN.left}" y2="${panelBottom}" stroke="${escapeXml(colours.text)}" stroke-width="1"/>`);
    const midY = num((panelTop + panelBottom) / 2);
    out.push(
      `<text x="16" y="${midY}" transform="rotate(-90 16 ${midY})" text-anchor="middle" ${FONT} font-size="13" fill="${escapeXml(colours.muted)}">${escapeXml(axis.title)}</text>`,
    );
    for (const { line, index } of lines) {
      const colour = colourOf(index);
      let d = '';
      const dots: string[] = [];
      line.points.forEach((p, i) => {
        if (p.y === null) return;
        const before = line.points[i - 1]?.y;
        const after = line.points[i + 1]?.y;
        const x = num(xPos(p.x));
        const y = num(yPos(p.y));
        d += `${before === null || before === undefined ? 'M' : 'L'}${x} ${y} `;
        if ((before === null || before === undefined) && (after === null || after === undefined)) dots.push(`<circle cx="${x}" cy="${y}" r="3" fill="${colour}"/>`);
      });
      out.push(`<path d="${d.trim()}" fill="none" stroke="${colour}" stroke-width="2" stroke-linejoin="round" stroke-linecap="round" data-series="${escapeXml(line.label)}"/>`);
      out.push(...dots);
    }
    for (const { line } of lines) for (const mark of line.marks) out.push(markSvg(mark, xPos(mark.x), yPos(mark.y), line.label));
  });

  out.push(`<line x1="${MARGIN.left}" y1="${bottom}" x2="${width - MARGIN.right}" y2="${bottom}" stroke="${escapeXml(colours.text)}" stroke-width="1"/>`);
  for (const tick of niceTicks(xMin, xMax, 8, model.axis === 'time')) {
    const x = num(xPos(tick));
    out.push(`<line x1="${x}" y1="${bottom}" x2="${x}" y2="${bottom + 5}" stroke="${escapeXml(colours.text)}" stroke-width="1"/>`);
    out.push(`<text x="${x}" y="${bottom + 20}" text-anchor="middle" ${FONT} font-size="12" fill="${escapeXml(colours.muted)}">${escapeXml(xLabel(tick))}</text>`);
  }
  out.push(
    `<text x="${num(MARGIN.left + plotWidth / 2)}" y="${height - 12}" text-anchor="middle" ${FONT} font-size="13" fill="${escapeXml(colours.muted)}">${model.axis === 'time' ? 'Time (m:ss)' : 'Frame'}</text>`,
  );
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

/** The SVG drawn on a canvas at `scale` times its size, as a PNG. */
export function svgToPng(svg: string, size: { width: number; height: number }, scale = 2): Promise<Blob> {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => {
      const canvas = document.createElement('canvas');
      canvas.width = size.width * scale;
      canvas.height = size.height * scale;
      const ctx = canvas.getContext('2d');
      if (!ctx) return reject(new Error('no canvas'));
      ctx.scale(scale, scale);
      ctx.drawImage(image, 0, 0, size.width, size.height);
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the PNG could not be made'))), 'image/png');
    };
    image.onerror = () => reject(new Error('the SVG could not be drawn'));
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
  });
}
