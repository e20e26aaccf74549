import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AppDispatch } from '../store';
import { PROFILE_WATCH_DURATION_MS, PROFILE_WATCH_INTERVAL_MS, watchProfileAfterCheckout } from './profileWatch';

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('watchProfileAfterCheckout', () => {
  it('asks for the profile every 5 s, and stops after 2 minutes', () => {
    expect([PROFILE_WATCH_INTERVAL_MS, PROFILE_WATCH_DURATION_MS]).toEqual([5_000, 120_000]);
    const dispatch = vi.fn();
    watchProfileAfterCheckout(dispatch as unknown as AppDispatch);
    vi.advanceTimersByTime(4_999);
    expect(dispatch).toHaveBeenCalledTimes(0);
    vi.advanceTimersByTime(1);
    expect(dispatch).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(55_000);
    expect(dispatch).toHaveBeenCalledTimes(12);
    vi.advanceTimersByTime(10 * 60_000);
    const total = dispatch.mock.calls.length;
    expect(total).toBeGreaterThanOrEqual(23);
    expect(total).toBeLessThanOrEqual(24);
  });

  it('a second purchase restarts the two minutes instead of adding a second timer', () => {
    const dispatch = vi.fn();
    watchProfileAfterCheckout(dispatch as unknown as AppDispatch);
    vi.advanceTimersByTime(100_000);
    const before = dispatch.mock.calls.length;
    watchProfileAfterCheckout(dispatch as unknown as AppDispatch);
    vi.advanceTimersByTime(10_000);
    expect(dispatch.mock.calls.length - before).toBe(2);
    vi.advanceTimersByTime(100_000);
    expect(dispatch.mock.calls.length - before).toBe(22);
  });

  it('stops when asked', () => {
    const dispatch = vi.fn();
    const stop = watchProfileAfterCheckout(dispatch as unknown as AppDispatch);
    vi.advanceTimersByTime(5_000);
    stop();
    vi.advanceTimersByTime(60_000);
    expect(dispatch).toHaveBeenCalledTimes(1);
  });
});
