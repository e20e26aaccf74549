import { parseKeptWork, type ScrollWork } from '@frametext/contracts';
import type { Rect, ScrollSettings } from '@frametext/text-analysis';
import type { ResultsFrame } from '../../model';
import { lockTemplate, type LockedTemplate } from './detection';

/*
 * The Scroll view's kept work (issue 16): the template box, where it was locked, the settings and Ignore
 * duplicates. A locked template keeps the frame, box and frame size it was locked with, and its layout is read
 * from that frame again on restore (the same rule gives the same template). Detected items are not kept: Detect
 * Items finds them again in seconds. A new piece of state is kept by adding it here, in both functions, and to
 * scrollWorkSchema in @frametext/contracts.
 */

export function scrollWork(box: Rect, locked: LockedTemplate | null, settings: ScrollSettings, ignoreDuplicates: boolean): ScrollWork {
  return {
    version: 1,
    box: { ...box },
    locked: locked ? { frameIndex: locked.frameIndex, box: { ...locked.box }, space: { ...locked.space } } : null,
    settings: { ...settings },
    ignoreDuplicates,
  };
}

export interface RestoredScroll {
  box: Rect;
  locked: LockedTemplate | null;
  settings: ScrollSettings;
  ignoreDuplicates: boolean;
}

/** The kept work as the view's state, or null when there is none; a template whose frame holds no text stays unlocked. */
export function restoreScrollWork(kept: unknown, frames: readonly ResultsFrame[]): RestoredScroll | null {
  const work = parseKeptWork('scroll', kept);
  if (!work) return null;
  const frame = work.locked ? frames[work.locked.frameIndex] : undefined;
  const locked = work.locked && frame ? lockTemplate(frame, work.locked.box, work.locked.space) : null;
  return { box: locked?.box ?? work.box, locked, settings: work.settings, ignoreDuplicates: work.ignoreDuplicates };
}
