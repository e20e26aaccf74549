import { describe, expect, it } from 'vitest';
import { perMinute, takeFromBucket } from '../src/token-bucket.js';

const tenAMinute = perMinute(10);

describe('takeFromBucket', () => {
  it('starts full, grants up to what it holds and says how long until the next request', () => {
    const first = takeFromBucket(undefined, 0, tenAMinute, 7);
    expect(first).toMatchObject({ granted: 7, state: { tokens: 3, at: 0 }, retryAfterMs: 0 });
    const second = takeFromBucket(first.state, 0, tenAMinute, 5);
    expect(second.granted).toBe(3);
    // One request refills every 6 s.
    expect(second.retryAfterMs).toBe(6_000);
  });

  it('refills continuously, never above its capacity', () => {
    const empty = takeFromBucket(undefined, 0, tenAMinute, 10).state;
    expect(takeFromBucket(empty, 5_999, tenAMinute, 1).granted).toBe(0);
    expect(takeFromBucket(empty, 5_999, tenAMinute, 1).retryAfterMs).toBe(1);
    expect(takeFromBucket(empty, 6_000, tenAMinute, 1).granted).toBe(1);
    expect(takeFromBucket(empty, 30_000, tenAMinute, 10).granted).toBe(5);
    expect(takeFromBucket(empty, 600_000, tenAMinute, 100).granted).toBe(10);
  });

  it('takes back requests given back, up to its capacity', () => {
    const empty = takeFromBucket(undefined, 0, tenAMinute, 10).state;
    expect(takeFromBucket(empty, 0, tenAMinute, 10, 4).granted).toBe(4);
    const half = takeFromBucket(undefined, 0, tenAMinute, 5).state;
    expect(takeFromBucket(half, 0, tenAMinute, 100, 50).granted).toBe(10);
  });

  it('does not let float error cost a request, nor a clock that stepped back add any', () => {
    const rate = perMinute(3);
    let state = takeFromBucket(undefined, 0, rate, 3).state;
    let granted = 0;
    for (let t = 1; t <= 60_000; t += 1) {
      const taken = takeFromBucket(state, t, rate, 1);
      state = taken.state;
      granted += taken.granted;
    }
    expect(granted).toBe(3);
    expect(takeFromBucket(state, 30_000, rate, 1)).toMatchObject({ granted: 0, state: { at: 60_000 } });
  });
});
