import { useCallback, useEffect, useRef, useState } from 'react';
import { itemsOnFrame, type ListItemMatch, type LockedTemplate, type ScrollSettings } from '@frametext/text-analysis';
import type { ResultsFrame } from '../../model';

/** Work on frames in slices of at most this long, then let the page breathe (input, painting). */
export const SLICE_MS = 12;

export type DetectionState =
  | { status: 'idle' }
  | { status: 'running'; done: number; total: number }
  | { status: 'done'; matches: ListItemMatch[]; framesScanned: number; settings: ScrollSettings };

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Runs the template over every frame without blocking the page: frames are scanned in slices of about 12 ms with a
 * macrotask between slices, and progress is reported per slice. Starting again, clearing or leaving the view stops a
 * run that is under way.
 */
export function useScrollDetection() {
  const [state, setState] = useState<DetectionState>({ status: 'idle' });
  const run = useRef(0);

  useEffect(
    () => () => {
      run.current++;
    },
    [],
  );

  const start = useCallback(async (frames: readonly ResultsFrame[], locked: LockedTemplate, settings: ScrollSettings) => {
    const id = ++run.current;
    const total = frames.length;
    const matches: ListItemMatch[] = [];
    setState({ status: 'running', done: 0, total });
    let i = 0;
    while (i < total) {
      await nextTask();
      if (run.current !== id) return;
      const until = performance.now() + SLICE_MS;
      do {
        matches.push(...itemsOnFrame(frames[i]!, locked, settings));
        i++;
      } while (i < total && performance.now() < until);
      setState({ status: 'running', done: i, total });
    }
    setState({ status: 'done', matches, framesScanned: total, settings });
  }, []);

  const clear = useCallback(() => {
    run.current++;
    setState({ status: 'idle' });
  }, []);

  return { state, start, clear };
}
