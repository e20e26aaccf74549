import { describe, expect, it } from 'vitest';
import { chartFileName, chartModel } from './chartData';

const series = (name: string, values: string[]) => ({ name, values, originals: null, averageY: 0, count: values.length });

describe('chart model', () => {
  it('puts each value at its time and leaves gaps where it is missing or not a number', () => {
    const model = chartModel([0, 5, 10, 15], [series('Power', ['150', '', 'n/a', '1.234,5 kW'])]);
    expect(model.axis).toBe('time');
    expect(model.hasNumbers).toBe(true);
    expect(model.lines).toEqual([
      {
        label: 'Power',
        points: [
          { x: 0, y: 150 },
          { x: 5, y: null },
          { x: 10, y: null },
          { x: 15, y: 1234.5 },
        ],
      },
    ]);
  });

  it('counts frames when a frame has no time, and knows when there is nothing to draw', () => {
    const model = chartModel([0, null], [series('Label', ['Battery', ''])]);
    expect(model.axis).toBe('frame');
    expect(model.lines[0]!.points.map((p) => p.x)).toEqual([1, 2]);
    expect(model.hasNumbers).toBe(false);
  });

  it('names the PNG after the upload, without characters file systems refuse', () => {
    expect(chartFileName('Charger: evening')).toBe('Charger- evening-chart.png');
    expect(chartFileName('a/b\\c')).toBe('a-b-c-chart.png');
    expect(chartFileName('  ')).toBe('chart-chart.png');
  });
});
