import { parseKeptWork, type PresentationWork } from '@frametext/contracts';

/*
 * The Presentation view's kept work (issue 16): the similarity threshold and the ticked frames. A new piece of
 * state is kept by adding it here, in both functions, and to presentationWorkSchema in @frametext/contracts.
 */

export function presentationWork(selected: readonly boolean[], threshold: number): PresentationWork {
  return { version: 1, threshold, selected: [...selected] };
}

/** The kept work as the view's state, or null when there is none or its ticks do not fit the upload's frames. */
export function restorePresentationWork(kept: unknown, frameCount: number): PresentationWork | null {
  const work = parseKeptWork('presentation', kept);
  return work && work.selected.length === frameCount ? work : null;
}
