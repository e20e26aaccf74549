import { correctionsReducer, nextUnsure, noCorrections, numericalCsv, proofSeries, seriesOf, unsureCells, type CorrectionsState, type TextBlock, type Track } from '@frametext/text-analysis';
import { describe, expect, it } from 'vitest';
import { chartModel } from './chartData';
import { emptySelection, selectionReducer } from './selection';

const reading = (text: string, confidence = 95): TextBlock => ({
  text,
  confidence,
  vertices: [
    { x: 10, y: 10 },
    { x: 90, y: 10 },
    { x: 90, y: 40 },
    { x: 10, y: 40 },
  ],
});

// A speed read on five frames: a lost decimal point on frame 3, a faint reading on frame 5, nothing on frame 4.
const frames: TextBlock[][] = [[reading('45.1')], [reading('45.3')], [reading('455')], [], [reading('46.0', 41)]];
const track: Track = { id: 'block-1-1', points: [0, 1, 2, 4].map((frame) => ({ frame, index: 0 })) };
const tracks = new Map([[track.id, track]]);
const selection = selectionReducer(emptySelection, { type: 'added', id: track.id, seriesName: 'Speed', uniqueID: 4321 });
const rows = [seriesOf(frames, selection.blocks[0]!, tracks)];
const times = [{ t: 0 }, { t: 1 }, { t: 2 }, { t: 3 }, { t: 4 }];

describe('corrections', () => {
  it('marks the unsure cells, the blank one included, and walks them in order, wrapping round', () => {
    const proof = proofSeries(frames, rows, noCorrections);
    expect(proof[0]!.reasons).toEqual([[], [], ['jumps from 45.3 to 455: decimal point lost?'], ['no value read'], ['confidence 41 %']]);
    expect(proof[0]!.offPattern).toEqual([false, false, true, false, false]);
    expect(unsureCells(proof, 5)).toEqual([
      { seriesId: 4321, frame: 2 },
      { seriesId: 4321, frame: 3 },
      { seriesId: 4321, frame: 4 },
    ]);
    expect(nextUnsure(proof, 5, null)).toEqual({ seriesId: 4321, frame: 2 });
    expect(nextUnsure(proof, 5, { seriesId: 4321, frame: 2 })).toEqual({ seriesId: 4321, frame: 3 });
    expect(nextUnsure(proof, 5, { seriesId: 4321, frame: 4 })).toEqual({ seriesId: 4321, frame: 2 });
    // A value typed for the blank frame fills it: it is no longer unsure, and export.csv holds it.
    const filled = proofSeries(frames, rows, correctionsReducer(noCorrections, { type: 'corrected', seriesId: 4321, frame: 3, value: '45.9' }));
    expect(filled[0]!.reasons[3]).toEqual([]);
    expect(numericalCsv(times, [filled[0]!.series]).split('\r\n')[4]).toBe('4,0:03,45.9');
  });

  it('puts a correction into export.csv and the chart, and takes it out again when reverted', () => {
    let state: CorrectionsState = correctionsReducer(noCorrections, { type: 'corrected', seriesId: 4321, frame: 2, value: ' 45.5 ' });
    expect(state).toEqual({ '4321': { '2': '45.5' } });
    const proof = proofSeries(frames, rows, state);
    expect(proof[0]!.corrected).toEqual([false, false, true, false, false]);
    expect(proof[0]!.reasons[2]).toEqual([]);
    expect(proof[0]!.readings[2]).toBe('455');
    const csv = numericalCsv(times, [proof[0]!.series]);
    expect(csv.split('\r\n')).toEqual(['\uFEFFFrame,Time,"Speed"', '1,0:00,45.1', '2,0:01,45.3', '3,0:02,45.5', '4,0:03,', '5,0:04,46.0', '']);
    expect(chartModel([0, 1, 2, 3, 4], [proof[0]!.series]).lines[0]!.points.map((p) => p.y)).toEqual([45.1, 45.3, 45.5, null, 46]);

    state = correctionsReducer(state, { type: 'reverted', seriesId: 4321, frame: 2 });
    expect(state).toEqual({});
    expect(proofSeries(frames, rows, state)[0]!.series.values[2]).toBe('455');
  });

  it('forgets the corrections of a series that is no longer selected', () => {
    const state = correctionsReducer(correctionsReducer(noCorrections, { type: 'corrected', seriesId: 4321, frame: 0, value: '1' }), {
      type: 'corrected',
      seriesId: 1234,
      frame: 0,
      value: '2',
    });
    expect(correctionsReducer(state, { type: 'seriesKept', seriesIds: [1234] })).toEqual({ '1234': { '0': '2' } });
    expect(correctionsReducer(state, { type: 'seriesKept', seriesIds: [1234, 4321] })).toBe(state);
  });
});
