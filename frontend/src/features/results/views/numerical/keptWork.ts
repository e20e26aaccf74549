import { restoreNumericalWork as restoreWork, type CorrectionsState, type TextBlock, type TrackingSettings } from '@frametext/text-analysis';
import type { SelectionState } from './selection';

/* The Numerical view's kept work: read and written in @frametext/text-analysis (numerical-work.ts). */

export interface RestoredNumerical {
  selection: SelectionState;
  tracking: TrackingSettings;
  corrections: CorrectionsState;
}

/** The kept work as the view's state (nothing being edited), or null when there is none. */
export function restoreNumericalWork(kept: unknown, frames: readonly (readonly TextBlock[])[]): RestoredNumerical | null {
  const work = restoreWork(kept, frames);
  return work && { selection: { blocks: work.blocks, editing: null }, tracking: work.tracking, corrections: work.corrections };
}
