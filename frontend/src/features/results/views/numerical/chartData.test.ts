import { describe, expect, it } from 'vitest';
import { chartFileName, chartModel, marksCaption } from './chartData';

const series = (name: string, values: string[], unit: string | null = null) => ({ name, values, originals: null, averageY: 0, averageX: 0, averageHeight: 0, count: values.length, unit });

describe('chart model', () => {
  it('puts each value at its time and leaves gaps where it is missing or not a number', () => {
    const model = chartModel([0, 5, 10, 15], [series('Power', ['150', '', 'n/a', '1.234,5 kW'])]);
    expect(model.axis).toBe('time');
    expect(model.hasNumbers).toBe(true);
    expect(model.lines).toEqual([
      {
        label: 'Power',
        axisId: 'series:0',
        marks: [],
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
    expect(model.axes.map(({ range: _range, ...axis }) => axis)).toEqual([
      { id: 'unit:%', title: '%', isTime: false },
      { id: 'unit:kw', title: 'kW', isTime: false },
      { id: 'series:3', title: 'Count', isTime: false },
    ]);
    expect(model.lines.map((l) => l.axisId)).toEqual(['unit:%', 'unit:kw', 'unit:kw', 'series:3']);
  });

  it('plots times such as 11:12 as times on a time axis, not as the number 11', () => {
    const model = chartModel([0, 0.5, 1], [series('Clock', ['11:12', '11:13', 'x'])]);
    expect(model.axes).toEqual([{ id: 'time', title: 'Time (m:ss)', isTime: true, range: { min: 671.95, max: 673.05 } }]);
    expect(model.lines[0]!.points.map((p) => p.y)).toEqual([672, 673, null]);
    expect(model.timeDecimals).toBe(1);
  });

  it('counts frames when a frame has no time, and knows when there is nothing to draw', () => {
    const model = chartModel([0, null], [series('Label', ['Battery', ''])]);
    expect(model.axis).toBe('frame');
    expect(model.lines[0]!.points.map((p) => p.x)).toEqual([1, 2]);
    expect(model.hasNumbers).toBe(false);
  });

  it('leaves a value far off the others out of the line and the axis, and marks it at the edge with the gaps and unsure values', () => {
    // A temperature: frame 3 blank (a gap), frame 5 read 3722 for 37.2, frame 6 read faintly.
    const values = ['37.1', '37.2', '', '37.2', '3722', '37.4', '37.3'];
    const off = [false, false, false, false, true, false, false];
    const unsure = [false, false, true, false, true, true, false];
    const model = chartModel([0, 1, 2, 3, 4, 5, 6], [series('Temperature', values, '°C')], [{ unsure, offPattern: off }]);
    const [axis] = model.axes;
    // The axis spans the line's values (37.1 to 37.4, padded to round ticks), not the 3722.
    expect(axis!.range).toEqual({ min: 37, max: 37.5 });
    const [line] = model.lines;
    expect(line!.points.map((p) => p.y)).toEqual([37.1, 37.2, null, 37.2, null, 37.4, 37.3]);
    expect(line!.marks).toEqual([
      { kind: 'gap', x: 2, y: axis!.range!.min, value: '', clamped: 'bottom' },
      { kind: 'outlier', x: 4, y: axis!.range!.max, value: '3722', clamped: 'top' },
      { kind: 'unsure', x: 5, y: 37.4, value: '37.4', clamped: null },
    ]);
    expect(marksCaption(model)).toBe(
      'Marked in orange: 1 value far off the others, left out of the line (a triangle at the edge when off the scale); 1 frame without a value (a cross on the bottom edge; the line breaks there); 1 unsure value (a ring).',
    );
    // Without the proofreading's word, every number is on the line.
    expect(chartModel([0, 1, 2, 3, 4, 5, 6], [series('Temperature', values, '°C')]).axes[0]!.range!.max).toBeGreaterThan(3000);
    expect(marksCaption(chartModel([0, 1], [series('Temperature', ['37.1', '37.2'])]))).toBeNull();
  });

  it('names the PNG after the upload, without characters file systems refuse', () => {
    expect(chartFileName('Charger: evening')).toBe('Charger- evening-chart.png');
    expect(chartFileName('a/b\\c')).toBe('a-b-c-chart.png');
    expect(chartFileName('  ')).toBe('upload-chart.png');
  });
});
