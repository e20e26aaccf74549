import type { AppDispatch } from '../store';
import { creditsApi } from './api';

/** The spec: after opening a checkout, the profile is fetched again every 5 s for 2 minutes. */
export const PROFILE_WATCH_INTERVAL_MS = 5_000;
export const PROFILE_WATCH_DURATION_MS = 120_000;

let stopCurrent: (() => void) | null = null;

/**
 * Refetches the profile (and so the credit balance every page shows) on a timer that outlives the purchase
 * modal: the payment happens in another tab while the person may have closed the dialog. Starting again
 * restarts the two minutes.
 */
export function watchProfileAfterCheckout(dispatch: AppDispatch): () => void {
  stopCurrent?.();
  const startedAt = Date.now();
  const timer = setInterval(() => {
    if (Date.now() - startedAt >= PROFILE_WATCH_DURATION_MS) return stop();
    void dispatch(creditsApi.endpoints.getProfile.initiate(undefined, { forceRefetch: true, subscribe: false }));
  }, PROFILE_WATCH_INTERVAL_MS);
  function stop() {
    clearInterval(timer);
    if (stopCurrent === stop) stopCurrent = null;
  }
  stopCurrent = stop;
  return stop;
}

/** Stops the current watch, if any (tests end with it). */
export function stopWatchingProfile(): void {
  stopCurrent?.();
}
