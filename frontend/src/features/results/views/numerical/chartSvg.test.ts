import { describe, expect, it } from 'vitest';
import { chartModel } from './chartData';
import { chartSvg, chartSvgSize, niceTicks } from './chartSvg';

const colours = { text: '#111111', muted: '#555555', grid: '#dddddd', background: '#ffffff' };
const series = (name: string, values: string[], unit: string | null = null) => ({ name, values, originals: null, averageY: 0, averageX: 0, averageHeight: 0, count: values.length, unit });

describe('chart SVG', () => {
  it('breaks a line at a missing value and shows a lone value as a dot', () => {
    const model = chartModel([0, 1, 2, 3, 4, 5], [series('Power', ['10', '20', '', '30', '', '40'], 'kW')]);
    const svg = chartSvg(model, colours, 'Charger');
    const path = /<path d="([^"]+)"[^>]*data-series="Power"/.exec(svg)![1]!;
    // Three runs: frames 1-2, frame 4 alone, frame 6 alone; never a line across a gap.
    expect(path.match(/M/g)).toHaveLength(3);
    expect(path.match(/L/g)).toHaveLength(1);
    expect(svg.match(/<circle /g)).toHaveLength(2);
  });

  it('draws a value far off the others as a triangle on the panel\'s top edge, a gap as a cross, and keeps the axis on the line', () => {
    const values = ['37.1', '37.2', '', '37.2', '3722', '37.4'];
    const model = chartModel([0, 1, 2, 3, 4, 5], [series('Temperature', values, '°C')], [
      { unsure: [false, false, true, false, true, false], offPattern: [false, false, false, false, true, false] },
    ]);
    const svg = chartSvg(model, colours, 'Instrument');
    const labels = [...svg.matchAll(/text-anchor="end"[^>]*>([^<]+)<\/text>/g)].map((m) => Number(m[1]));
    expect(Math.max(...labels)).toBeLessThan(38);
    expect(svg.match(/data-mark="outlier"/g)).toHaveLength(1);
    expect(svg.match(/data-mark="gap"/g)).toHaveLength(1);
    // The triangle's tip is on the top panel's top edge (the legend's row above it).
    const tip = /<path d="M([\d.]+) ([\d.]+)L[^"]*Z"[^>]*data-mark="outlier"/.exec(svg)!;
    expect(Number(tip[2])).toBeLessThan(80);
  });

  it('is a standalone document on the theme background, one panel per unit, with escaped names', () => {
    const model = chartModel([0, 60, 120], [series('Battery <main>', ['20', '50', '80'], '%'), series('Power', ['150', '120', '90'], 'kW')]);
    const svg = chartSvg(model, { ...colours, background: '#1d2330' }, 'Charger & co');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain(`<rect x="0" y="0" width="${chartSvgSize(model).width}" height="${chartSvgSize(model).height}" fill="#1d2330"/>`);
    expect(svg).toContain('<title>Charger &amp; co</title>');
    expect(svg).toContain('Battery &lt;main&gt;');
    expect(svg).not.toContain('class=');
    // Both axes' titles, and the time axis in m:ss.
    expect(svg).toMatch(/>%<\/text>/);
    expect(svg).toMatch(/>kW<\/text>/);
    expect(svg).toContain('>2:00</text>');
    expect(chartSvgSize(model).height).toBeGreaterThan(chartSvgSize(chartModel([0, 60], [series('Battery', ['20', '50'], '%')])).height);
  });

  it('picks round ticks, in clock steps for times', () => {
    expect(niceTicks(0, 100, 4)).toEqual([0, 50, 100]);
    expect(niceTicks(0, 10, 5)).toEqual([0, 2, 4, 6, 8, 10]);
    expect(niceTicks(0, 300, 4, true)).toEqual([0, 120, 240]);
  });
});
