import { defaultBlockSettings, lockedFoundBlock, type BlockSettings, type FoundBlock, type SelectedBlock, type TrackPoint } from '@frametext/text-analysis';

/*
 * The Numerical view's selected blocks, as a reducer (pure, tested beside this file):
 * - a picked block is added unlocked, named after its text, and opened for editing;
 * - Lock freezes the block's frames and their count and closes editing (a block tracking no longer knows is simply
 *   removed);
 * - Unlock makes it follow tracking again under its original id;
 * - Remove deletes an unlocked block (a locked one is not offered it, and stays);
 * - new tracking settings drop every unlocked block and close editing; locked blocks stay as they were;
 * - Find the numbers adds every series it found at once, locked and named (one step), leaving out any tracked
 *   block already selected.
 */

export interface SelectionState {
  blocks: SelectedBlock[];
  /** uniqueID of the block whose edit panel is open. */
  editing: number | null;
}

export const emptySelection: SelectionState = { blocks: [], editing: null };

export type SelectionAction =
  | { type: 'added'; id: string; seriesName: string; uniqueID: number }
  | { type: 'editToggled'; uniqueID: number }
  | { type: 'editOpened'; uniqueID: number }
  | { type: 'settingsChanged'; uniqueID: number; settings: Partial<BlockSettings> }
  /** points: the block's frames in the current tracking, or null when tracking no longer has it. */
  | { type: 'locked'; uniqueID: number; points: TrackPoint[] | null }
  | { type: 'unlocked'; uniqueID: number }
  | { type: 'removed'; uniqueID: number }
  | { type: 'trackingChanged' }
  | { type: 'found'; series: FoundBlock[] };

const update = (state: SelectionState, uniqueID: number, change: (b: SelectedBlock) => SelectedBlock): SelectionState => ({
  ...state,
  blocks: state.blocks.map((b) => (b.uniqueID === uniqueID ? change(b) : b)),
});

export function selectionReducer(state: SelectionState, action: SelectionAction): SelectionState {
  switch (action.type) {
    case 'added': {
      const block: SelectedBlock = {
        id: action.id,
        originalId: action.id,
        locked: false,
        uniqueID: action.uniqueID,
        points: null,
        total: null,
        settings: defaultBlockSettings(action.seriesName),
      };
      return { blocks: [...state.blocks, block], editing: action.uniqueID };
    }
    case 'editToggled':
      return { ...state, editing: state.editing === action.uniqueID ? null : action.uniqueID };
    case 'editOpened':
      return { ...state, editing: action.uniqueID };
    case 'settingsChanged':
      return update(state, action.uniqueID, (b) => ({ ...b, settings: { ...b.settings, ...action.settings } }));
    case 'locked': {
      const { points } = action;
      if (!points) return { blocks: state.blocks.filter((b) => b.uniqueID !== action.uniqueID), editing: null };
      const next = update(state, action.uniqueID, (b) =>
        b.locked ? b : { ...b, locked: true, id: `locked-${b.uniqueID}`, points, total: points.length },
      );
      return { ...next, editing: null };
    }
    case 'unlocked': {
      const block = state.blocks.find((b) => b.uniqueID === action.uniqueID);
      if (!block?.locked) return state;
      // Picked again meanwhile: the unlocked copy gives way, so each tracked block is selected once.
      const others = state.blocks.filter((b) => b.uniqueID === action.uniqueID || b.locked || b.id !== block.originalId);
      const blocks = others.map((b) => (b.uniqueID === action.uniqueID ? { ...b, locked: false, id: b.originalId, points: null, total: null } : b));
      return { blocks, editing: blocks.some((b) => b.uniqueID === state.editing) ? state.editing : null };
    }
    case 'removed': {
      const block = state.blocks.find((b) => b.uniqueID === action.uniqueID);
      if (!block || block.locked) return state;
      return { blocks: state.blocks.filter((b) => b !== block), editing: state.editing === action.uniqueID ? null : state.editing };
    }
    case 'trackingChanged':
      return { blocks: state.blocks.filter((b) => b.locked), editing: null };
    case 'found': {
      const taken = new Set(state.blocks.flatMap((b) => [b.id, b.originalId]));
      const added = action.series
        .filter((f) => !taken.has(f.originalId))
        .map(lockedFoundBlock);
      return added.length === 0 ? state : { ...state, blocks: [...state.blocks, ...added] };
    }
  }
}
