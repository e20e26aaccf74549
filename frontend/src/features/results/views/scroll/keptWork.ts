import { parseKeptWork, type ScrollWork } from '@frametext/contracts';
import type { Rect, ScrollSettings } from '@frametext/text-analysis';
import type { ResultsFrame } from '../../model';
import { lockTemplate, type LockedTemplate } from './detection';

/*
 * The Scroll view's kept work (issue 16): the template box, where it was locked, the settings, Ignore duplicates,
 * and the detection settings of the last Detect Items while its results are shown. A locked template keeps the
 * frame, box and frame size it was locked with, and its layout is read from that frame again on restore (the same
 * rule gives the same template); with the detection settings, the view runs Detect Items again on open and shows
 * the same items (they are a function of the frames, the template and those settings, so storing them would only
 * spend the size limit). A new piece of state is kept by adding it here, in both functions, and to
 * scrollWorkSchema in @frametext/contracts.
 */

/** The settings Detect Items ran with (the duplicate threshold applies to its results, so it is not one of them). */
export type DetectionSettings = Pick<ScrollSettings, 'linePositionTolerance' | 'lineCountTolerance' | 'minSimilarity'>;

export const detectionSettingsOf = ({ linePositionTolerance, lineCountTolerance, minSimilarity }: ScrollSettings): DetectionSettings => ({
  linePositionTolerance,
  lineCountTolerance,
  minSimilarity,
});

/** `detected`: the detection settings while Detect Items' results are shown (or under way), else null. */
export function scrollWork(box: Rect, locked: LockedTemplate | null, settings: ScrollSettings, ignoreDuplicates: boolean, detected: DetectionSettings | null): ScrollWork {
  return {
    version: 1,
    box: { ...box },
    locked: locked ? { frameIndex: locked.frameIndex, box: { ...locked.box }, space: { ...locked.space } } : null,
    settings: { ...settings },
    ignoreDuplicates,
    // Left out, not null, without results: work kept before detection was kept reads the same and is not saved again.
    ...(locked && detected ? { detected: { ...detected } } : {}),
  };
}

export interface RestoredScroll {
  box: Rect;
  locked: LockedTemplate | null;
  settings: ScrollSettings;
  ignoreDuplicates: boolean;
  /** Detect Items to run again on open (with the locked template), or null. */
  detected: DetectionSettings | null;
}

/** The kept work as the view's state, or null when there is none; a template whose frame holds no text stays unlocked. */
export function restoreScrollWork(kept: unknown, frames: readonly ResultsFrame[]): RestoredScroll | null {
  const work = parseKeptWork('scroll', kept);
  if (!work) return null;
  const frame = work.locked ? frames[work.locked.frameIndex] : undefined;
  const locked = work.locked && frame ? lockTemplate(frame, work.locked.box, work.locked.space) : null;
  return { box: locked?.box ?? work.box, locked, settings: work.settings, ignoreDuplicates: work.ignoreDuplicates, detected: locked ? (work.detected ?? null) : null };
}
