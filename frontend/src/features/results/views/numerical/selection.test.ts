import { describe, expect, it } from 'vitest';
import { newUniqueID } from '@frametext/text-analysis';
import { emptySelection, selectionReducer, type SelectionAction, type SelectionState } from './selection';

const run = (actions: SelectionAction[], from: SelectionState = emptySelection) => actions.reduce(selectionReducer, from);
const points = [
  { frame: 0, index: 1 },
  { frame: 1, index: 1 },
];

describe('selected blocks', () => {
  it('adds a picked block unlocked with its default name and opens it for editing', () => {
    const state = run([{ type: 'added', id: 'block-1-2', seriesName: 'Battery 20% Block', uniqueID: 4321 }]);
    expect(state.editing).toBe(4321);
    expect(state.blocks).toEqual([
      {
        id: 'block-1-2',
        originalId: 'block-1-2',
        locked: false,
        uniqueID: 4321,
        points: null,
        total: null,
        settings: { seriesName: 'Battery 20% Block', numbersOnly: false, wordsToRemove: '', charactersToRemove: '', characterToSplit: '', keepSplitItem: 0 },
      },
    ]);
  });

  it('locks with frozen frames and total, closes editing, and unlocks under the original id', () => {
    const locked = run([
      { type: 'added', id: 'block-1-2', seriesName: 'B', uniqueID: 4321 },
      { type: 'locked', uniqueID: 4321, points },
    ]);
    expect(locked.editing).toBeNull();
    expect(locked.blocks[0]).toMatchObject({ locked: true, id: 'locked-4321', originalId: 'block-1-2', points, total: 2 });
    const unlocked = run([{ type: 'unlocked', uniqueID: 4321 }], locked);
    expect(unlocked.blocks[0]).toMatchObject({ locked: false, id: 'block-1-2', points: null, total: null });
  });

  it('removes on Lock a block tracking no longer has', () => {
    const state = run([
      { type: 'added', id: 'block-1-2', seriesName: 'B', uniqueID: 4321 },
      { type: 'locked', uniqueID: 4321, points: null },
    ]);
    expect(state.blocks).toEqual([]);
  });

  it('removes unlocked blocks only, and new tracking drops every unlocked block', () => {
    const state = run([
      { type: 'added', id: 'block-1-1', seriesName: 'A', uniqueID: 2000 },
      { type: 'added', id: 'block-1-2', seriesName: 'B', uniqueID: 3000 },
      { type: 'locked', uniqueID: 2000, points },
      { type: 'removed', uniqueID: 2000 },
      { type: 'editOpened', uniqueID: 3000 },
    ]);
    expect(state.blocks.map((b) => b.uniqueID)).toEqual([2000, 3000]);
    const after = run([{ type: 'trackingChanged' }], state);
    expect(after.blocks.map((b) => b.uniqueID)).toEqual([2000]);
    expect(after.editing).toBeNull();
  });

  it('keeps one selection per tracked block when a locked block is unlocked after being picked again', () => {
    const state = run([
      { type: 'added', id: 'block-1-2', seriesName: 'B', uniqueID: 2000 },
      { type: 'locked', uniqueID: 2000, points },
      { type: 'added', id: 'block-1-2', seriesName: 'B again', uniqueID: 3000 },
      { type: 'unlocked', uniqueID: 2000 },
    ]);
    expect(state.blocks.map((b) => [b.uniqueID, b.id])).toEqual([[2000, 'block-1-2']]);
  });

  it('toggles the edit panel and updates settings', () => {
    const state = run([
      { type: 'added', id: 'x', seriesName: 'X', uniqueID: 5000 },
      { type: 'editToggled', uniqueID: 5000 },
      { type: 'settingsChanged', uniqueID: 5000, settings: { numbersOnly: true, keepSplitItem: 2 } },
    ]);
    expect(state.editing).toBeNull();
    expect(state.blocks[0]!.settings).toMatchObject({ seriesName: 'X', numbersOnly: true, keepSplitItem: 2 });
    expect(run([{ type: 'editToggled', uniqueID: 5000 }], state).editing).toBe(5000);
  });

  it('draws unique ids between 1000 and 9999', () => {
    const rolls = [0, 0, 0.99999];
    const taken = run([{ type: 'added', id: 'x', seriesName: 'X', uniqueID: 1000 }]);
    expect(newUniqueID(taken.blocks, () => rolls.shift()!)).toBe(9999);
    for (let i = 0; i < 200; i++) {
      const id = newUniqueID([]);
      expect(id).toBeGreaterThanOrEqual(1000);
      expect(id).toBeLessThanOrEqual(9999);
    }
  });
  it('adds every found series at once, locked with its frames, and not twice', () => {
    const settings = { seriesName: 'Battery (%)', numbersOnly: true, wordsToRemove: 'Battery', charactersToRemove: '', characterToSplit: '', keepSplitItem: 0 };
    const picked = run([{ type: 'added', id: 'block-1-3', seriesName: 'Power Block', uniqueID: 1111 }]);
    const found: SelectionAction = {
      type: 'found',
      series: [
        { originalId: 'block-1-2', points, settings, uniqueID: 2222 },
        { originalId: 'block-1-3', points, settings: { ...settings, seriesName: 'Power (kW)' }, uniqueID: 3333 },
      ],
    };
    const state = run([found], picked);
    // The Power block was already selected: only Battery is added, locked, and the open editor stays open.
    expect(state.blocks.map((b) => b.uniqueID)).toEqual([1111, 2222]);
    expect(state.blocks[1]).toEqual({ id: 'locked-2222', originalId: 'block-1-2', locked: true, uniqueID: 2222, points, total: 2, settings });
    expect(state.editing).toBe(1111);
    // Found again: nothing changes.
    expect(run([found], state)).toBe(state);
  });
});
