import { describe, expect, it } from 'vitest';
import { chartFileName, chartModel } from './chartData';

const series = (name: string, values: string[], unit: string | null = null) => ({ name, values, originals: null, averageY: 0, count: values.length, unit });

describe('chart model', () => {
  it('puts each value at its time and leaves gaps where it is missing or not a number', () => {
    const model = chartModel([0, 5, 10, 15], [series('Power', ['150', '', 'n/a', '1.234,5 kW'])]);
    expect(model.axis).toBe('time');
    expect(model.hasNumbers).toBe(true);
    expect(model.lines).toEqual([
      {
        label: 'Power',
        axisId: 'series:0',
        points: [
          { x: 0, y: 150 },
          { x: 5, y: null },
          { x: 10, y: null },
          { x: 15, y: 1234.5 },
        ],
      },
    ]);
  });

  it('gives each unit its own axis, so a 150 kW series does not flatten a 0-100 % one', () => {
    const model = chartModel(
      [0, 1],
      [series('Battery', ['20', '21'], '%'), series('Power', ['150', '148'], 'kW'), series('Voltage', ['400', '401'], 'KW'), series('Count', ['3', '4'])],
    );
    expect(model.axes).toEqual([
      { id: 'unit:%', title: '%', isTime: false },
      { id: 'unit:kw', title: 'kW', isTime: false },
      { id: 'series:3', title: 'Count', isTime: false },
    ]);
    expect(model.lines.map((l) => l.axisId)).toEqual(['unit:%', 'unit:kw', 'unit:kw', 'series:3']);
  });

  it('plots times such as 11:12 as times on a time axis, not as the number 11', () => {
    const model = chartModel([0, 0.5, 1], [series('Clock', ['11:12', '11:13', 'x'])]);
    expect(model.axes).toEqual([{ id: 'time', title: 'Time (m:ss)', isTime: true }]);
    expect(model.lines[0]!.points.map((p) => p.y)).toEqual([672, 673, null]);
    expect(model.timeDecimals).toBe(1);
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
