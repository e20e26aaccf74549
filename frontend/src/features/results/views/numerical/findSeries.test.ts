import { findNewSeries, rectVertices, trackBlocks, type TextBlock, type Track } from '@frametext/text-analysis';
import { describe, expect, it } from 'vitest';
import { emptySelection, selectionReducer } from './selection';

const block = (text: string, x: number, y: number): TextBlock => ({
  text,
  vertices: rectVertices({ x, y, w: 120, h: 40 }),
});

// Power is not read on frames 4 to 6, so tracking follows it as two tracks that Find the numbers joins.
const frames = Array.from({ length: 12 }, (_, s) => [
  block('Battery', 40, 100),
  block(`${40 + s}%`, 300, 100),
  block('Power', 40, 300),
  ...(s >= 4 && s <= 6 ? [] : [block(`${150 - s} kW`, 300, 300)]),
]);
const tracks = trackBlocks(frames).tracks;
const byId = new Map<string, Track>(tracks.map((t) => [t.id, t]));
let draws = 0;
/** Different ids on every draw (a constant would make newUniqueID draw forever once that id is taken). */
const random = () => (draws++ * 0.137) % 1;

describe('findNewSeries', () => {
  it('finds the series with unique ids and says what it found', () => {
    const outcome = findNewSeries(frames, tracks, byId, [], random);
    expect(outcome.series.map((s) => s.settings.seriesName)).toEqual(['Battery (%)', 'Power (kW)']);
    expect(new Set(outcome.series.map((s) => s.uniqueID)).size).toBe(2);
    expect(outcome.series[1]!.points).toHaveLength(9);
    expect(outcome.message).toBe('Found 2 series: Battery (%), Power (kW). Each is locked; edit, unlock or remove it below.');
  });

  it('finds nothing twice, a series joined from two tracks included, and keeps names in use free', () => {
    const state = selectionReducer(emptySelection, { type: 'found', series: findNewSeries(frames, tracks, byId, [], random).series });
    const again = findNewSeries(frames, tracks, byId, state.blocks.map((block) => ({ block, name: block.settings.seriesName })), random);
    expect(again.series).toEqual([]);
    expect(again.message).toBe('No new series found; the ones already selected stay as they are.');

    // Battery picked by hand under Power's name: Power is still found, under a name of its own.
    const picked = selectionReducer(emptySelection, { type: 'added', id: tracks[1]!.id, seriesName: 'Power (kW)', uniqueID: 5000 });
    const rest = findNewSeries(frames, tracks, byId, picked.blocks.map((block) => ({ block, name: 'Power (kW)' })), random);
    expect(rest.series.map((s) => s.settings.seriesName)).toEqual(['Power (kW) 2']);
    expect(rest.series[0]!.uniqueID).not.toBe(5000);
  });
});
