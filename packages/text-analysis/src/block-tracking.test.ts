import { describe, expect, it } from 'vitest';
import { DEFAULT_TRACKING_SETTINGS, TRACKING_LIMITS, bigEnough, trackBlocks, weightedDistance, type TrackingResult } from './block-tracking.js';
import { rectVertices, type TextBlock } from './geometry.js';
import { syntheticDashboard } from './synthetic-dashboard.js';

/** A block whose box has its top-left corner at x, y. */
function block(text: string, x: number, y: number, w = 200, h = 40, confidence?: number): TextBlock {
  return {
    text,
    vertices: rectVertices({ x, y, w, h }),
    ...(confidence !== undefined ? { confidence } : {}),
  };
}

/** The texts of each track, in frame order. */
function series(result: TrackingResult, frames: TextBlock[][]): Record<string, string[]> {
  return Object.fromEntries(result.tracks.map((t) => [t.id, t.points.map((p) => frames[p.frame]![p.index]!.text)]));
}

/** The charger screen: three readings whose numbers change every second. */
function chargerFrames(count: number): TextBlock[][] {
  return Array.from({ length: count }, (_, s) => [
    block('DC FAST CHARGER', 80, 40, 400),
    block(`Battery ${20 + s}%`, 80, 180, 330 + (20 + s >= 100 ? 20 : 0)),
    block(`Power ${150 - s} kW`, 80, 340, 360 - (150 - s < 100 ? 20 : 0)),
    block(`Elapsed 00:${String(s).padStart(2, '0')}`, 80, 500, 380),
  ]);
}

describe('trackBlocks', () => {
  it('keeps the spec defaults and ranges', () => {
    expect(DEFAULT_TRACKING_SETTINGS).toEqual({ similarity: 85, disappearance: 1, minSize: 0, confidence: 50 });
    expect(TRACKING_LIMITS.similarity).toEqual({ min: 75, max: 100, step: 0.5 });
    expect(TRACKING_LIMITS.disappearance).toEqual({ min: 0, max: 10, step: 1 });
    expect(TRACKING_LIMITS.minSize).toEqual({ min: 0, max: 1, step: 0.05 });
    expect(TRACKING_LIMITS.confidence).toMatchObject({ min: 50, max: 100 });
  });

  it('follows each reading of a charger screen as one series while its numbers change every frame', () => {
    const frames = chargerFrames(90);
    const result = trackBlocks(frames, DEFAULT_TRACKING_SETTINGS);
    expect(result.tracks.map((t) => t.id)).toEqual(['block-1-1', 'block-1-2', 'block-1-3', 'block-1-4']);
    const texts = series(result, frames);
    expect(texts['block-1-2']).toHaveLength(90);
    expect(texts['block-1-2']!.slice(78, 82)).toEqual(['Battery 98%', 'Battery 99%', 'Battery 100%', 'Battery 101%']);
    expect(texts['block-1-3']!.slice(49, 52)).toEqual(['Power 101 kW', 'Power 100 kW', 'Power 99 kW']);
    expect(result.trackIdAt[60]).toEqual(['block-1-1', 'block-1-2', 'block-1-3', 'block-1-4']);
  });

  it('gives the same ids for the same input', () => {
    const { frames } = syntheticDashboard({ frames: 30, fields: 20, seed: 3 });
    expect(trackBlocks(frames, DEFAULT_TRACKING_SETTINGS)).toEqual(trackBlocks(frames, DEFAULT_TRACKING_SETTINGS));
  });

  it('continues a reading the OCR garbled when it sits on the same spot', () => {
    const frames = [[block('20%', 400, 180, 120)], [block('2O°', 402, 181, 118)], [block('22%', 399, 180, 120)]];
    const result = trackBlocks(frames, DEFAULT_TRACKING_SETTINGS);
    expect(series(result, frames)).toEqual({ 'block-1-1': ['20%', '2O°', '22%'] });
  });

  it('follows a block that moved only while its text is similar enough', () => {
    // 'Alpha' -> 'Alpha!' is 83% alike: under the default 85%, over 75%.
    const frames = [[block('Alpha', 100, 100)], [block('Alpha!', 400, 100)]];
    expect(trackBlocks(frames, DEFAULT_TRACKING_SETTINGS).tracks).toHaveLength(2);
    expect(trackBlocks(frames, { ...DEFAULT_TRACKING_SETTINGS, similarity: 75 }).tracks).toHaveLength(1);
  });

  it('forgives changing numbers near the last place only: far away, the text as written must be alike', () => {
    // 'speed 120 km/h' -> 'speed 95 km/h' is 3 edits in 14 characters (79%); with numbers as '#', 100%.
    // Narrow boxes 60 px apart: not on each other's spot, but nearby (0.7 x 60 = 42).
    const nearby = [[block('Speed 120 km/h', 100, 100, 50)], [block('Speed 95 km/h', 160, 100, 50)]];
    const far = [[block('Speed 120 km/h', 100, 100)], [block('Speed 95 km/h', 600, 300)]];
    expect(trackBlocks(nearby, { ...DEFAULT_TRACKING_SETTINGS, similarity: 100 }).tracks).toHaveLength(1);
    expect(trackBlocks(far, DEFAULT_TRACKING_SETTINGS).tracks).toHaveLength(2);
    expect(trackBlocks(far, { ...DEFAULT_TRACKING_SETTINGS, similarity: 75 }).tracks).toHaveLength(1);
  });

  it('does not let a new field take over a missing field of the same kind elsewhere', () => {
    const frames = [[block('Zone 7 21.1 C', 100, 100)], [block('Zone 3 34.3 C', 500, 400)]];
    expect(trackBlocks(frames, DEFAULT_TRACKING_SETTINGS).tracks.map((t) => t.id)).toEqual(['block-1-1', 'block-2-1']);
  });

  it('does not follow a block farther than the maximum distance', () => {
    const near = [[block('Speed 1', 0, 0)], [block('Speed 2', 1428, 0)]];
    const far = [[block('Speed 1', 0, 0)], [block('Speed 2', 1430, 0)]];
    expect(weightedDistance({ x: 0, y: 0 }, { x: 1430, y: 0 })).toBeCloseTo(1001);
    expect(trackBlocks(near, DEFAULT_TRACKING_SETTINGS).tracks).toHaveLength(1);
    expect(trackBlocks(far, DEFAULT_TRACKING_SETTINGS).tracks).toHaveLength(2);
  });

  it('weighs horizontal distance more than vertical: the block below wins over the block beside', () => {
    const frames = [[block('Level 10', 500, 500)], [block('Level 11', 560, 500), block('Level 12', 500, 560)]];
    const result = trackBlocks(frames, DEFAULT_TRACKING_SETTINGS);
    // 0.7 x 60 = 42 beside, 0.3 x 60 = 18 below.
    expect(series(result, frames)['block-1-1']).toEqual(['Level 10', 'Level 12']);
  });

  it('keeps two fields with the same kind of reading apart by position', () => {
    const frames = [
      [block('Pump 1 40.2 kW', 100, 100), block('Pump 1 55.0 kW', 100, 300)],
      [block('Pump 1 41.0 kW', 101, 99), block('Pump 1 54.1 kW', 99, 301)],
      [block('Pump 1 56.3 kW', 100, 300), block('Pump 1 41.9 kW', 100, 100)],
    ];
    expect(series(trackBlocks(frames, DEFAULT_TRACKING_SETTINGS), frames)).toEqual({
      'block-1-1': ['Pump 1 40.2 kW', 'Pump 1 41.0 kW', 'Pump 1 41.9 kW'],
      'block-1-2': ['Pump 1 55.0 kW', 'Pump 1 54.1 kW', 'Pump 1 56.3 kW'],
    });
  });

  it('ends a track missing for more frames than the allowable disappearance', () => {
    const seen = (on: boolean[]) => on.map((visible, s) => (visible ? [block(`Battery ${20 + s}%`, 80, 180)] : []));
    const oneGap = seen([true, false, true]);
    const twoGaps = seen([true, false, false, true]);
    expect(trackBlocks(oneGap, DEFAULT_TRACKING_SETTINGS).tracks).toHaveLength(1);
    expect(trackBlocks(oneGap, { ...DEFAULT_TRACKING_SETTINGS, disappearance: 0 }).tracks).toHaveLength(2);
    expect(trackBlocks(twoGaps, DEFAULT_TRACKING_SETTINGS).tracks.map((t) => t.id)).toEqual(['block-1-1', 'block-4-1']);
    expect(trackBlocks(twoGaps, { ...DEFAULT_TRACKING_SETTINGS, disappearance: 2 }).tracks).toHaveLength(1);
  });

  it('leaves out blocks under the minimum size, on a square-root scale of the largest block', () => {
    const frames = [[block('big', 0, 0, 100, 100), block('forty', 300, 0, 40, 40), block('sixty', 600, 0, 60, 60), block('   ', 900, 0)]];
    const result = trackBlocks(frames, { ...DEFAULT_TRACKING_SETTINGS, minSize: 0.5 });
    // sqrt(1600) = 40 < 0.5 x sqrt(10000) = 50 <= sqrt(3600) = 60. Blank text never takes part.
    expect(result.trackIdAt[0]).toEqual(['block-1-1', null, 'block-1-3', null]);
    expect(trackBlocks(frames, DEFAULT_TRACKING_SETTINGS).trackIdAt[0]).toEqual(['block-1-1', 'block-1-2', 'block-1-3', null]);
    expect(bigEnough(0, 10_000, 0)).toBe(true);
  });

  it('leaves out blocks under the required confidence, reading fractions as percent', () => {
    const frames = [[block('a', 0, 0, 50, 20, 0.6), block('b', 300, 0, 50, 20, 72), block('c', 600, 0, 50, 20)]];
    expect(trackBlocks(frames, { ...DEFAULT_TRACKING_SETTINGS, confidence: 70 }).trackIdAt[0]).toEqual([null, 'block-1-2', 'block-1-3']);
    expect(trackBlocks(frames, { ...DEFAULT_TRACKING_SETTINGS, confidence: 50 }).trackIdAt[0]).toEqual(['block-1-1', 'block-1-2', 'block-1-3']);
    // Without a required confidence, 80 applies.
    expect(trackBlocks(frames).trackIdAt[0]).toEqual([null, null, 'block-1-3']);
  });

  it('keeps a block\'s id when a filter drops other blocks', () => {
    const frames = [
      [block('noise', 0, 0, 50, 20, 55), block('Battery 20%', 80, 180)],
      [block('noise', 0, 0, 50, 20, 55), block('Battery 21%', 80, 180)],
    ];
    const all = trackBlocks(frames, { ...DEFAULT_TRACKING_SETTINGS, confidence: 50 });
    const confident = trackBlocks(frames, { ...DEFAULT_TRACKING_SETTINGS, confidence: 60 });
    expect(all.trackIdAt[1]![1]).toBe('block-1-2');
    expect(confident.trackIdAt[1]).toEqual([null, 'block-1-2']);
  });

  it('follows every field of a busy synthetic dashboard as one series, without mixing fields', () => {
    // Fields go unread 3% of the time, so now and then twice in a row: allow three missing frames.
    const dashboard = syntheticDashboard({ frames: 120, seed: 11 });
    const result = trackBlocks(dashboard.frames, { ...DEFAULT_TRACKING_SETTINGS, disappearance: 3 });
    const fieldOf = (p: { frame: number; index: number }) => dashboard.field[p.frame]![p.index]!;
    for (let k = 0; k < dashboard.fieldCount; k++) {
      const appearances = dashboard.field.flat().filter((f) => f === k).length;
      const best = Math.max(...result.tracks.map((t) => t.points.filter((p) => fieldOf(p) === k).length));
      expect(best / appearances).toBeGreaterThanOrEqual(0.97);
    }
    for (const track of result.tracks) {
      const fields = track.points.map(fieldOf).filter((f) => f !== null);
      if (fields.length < 10) continue;
      const counts = new Map<number, number>();
      for (const f of fields) counts.set(f, (counts.get(f) ?? 0) + 1);
      expect(Math.max(...counts.values()) / track.points.length).toBeGreaterThanOrEqual(0.97);
    }
  });
});
