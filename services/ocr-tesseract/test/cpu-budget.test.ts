import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CpuBudget } from '../src/data/cpu-budget.js';

/** A read's meter on the fake clock: its process uses `rate` ms of CPU a millisecond; `takes` counts the looks at it. */
function fakeRead(rate = 1) {
  let last = Date.now();
  const read = {
    takes: 0,
    stopped: false,
    meter: {
      take: () => {
        read.takes++;
        const now = Date.now();
        const used = (now - last) * rate;
        last = now;
        return used;
      },
    },
    stop: () => {
      read.stopped = true;
    },
  };
  return read;
}

describe("a frame's CPU budget, metering reads", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('looks at a read only when it could have spent what remains, and stops it then', () => {
    const budget = new CpuBudget(1000);
    const read = fakeRead();
    budget.meter(read.meter, 1, read.stop);
    vi.advanceTimersByTime(999);
    expect(read).toMatchObject({ stopped: false, takes: 1 });
    vi.advanceTimersByTime(1);
    expect(read.stopped).toBe(true);
    expect(budget.spentMs).toBe(1000);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('divides what remains by the threads a read computes on', () => {
    const budget = new CpuBudget(1000);
    const read = fakeRead(4);
    budget.meter(read.meter, 4, read.stop);
    vi.advanceTimersByTime(249);
    expect(read.stopped).toBe(false);
    vi.advanceTimersByTime(1);
    expect(read.stopped).toBe(true);
    expect(budget.spentMs).toBe(1000);
  });

  it('stops every read under way once together they spend it; a read that starts later brings the look forward', () => {
    const budget = new CpuBudget(1000);
    const a = fakeRead();
    budget.meter(a.meter, 1, a.stop);
    vi.advanceTimersByTime(200);
    // a has used 200: 800 remain for two processes, spent 400 ms from now.
    const b = fakeRead();
    budget.meter(b.meter, 1, b.stop);
    expect(budget.spentMs).toBe(200);
    vi.advanceTimersByTime(399);
    expect([a.stopped, b.stopped]).toEqual([false, false]);
    vi.advanceTimersByTime(1);
    expect([a.stopped, b.stopped]).toEqual([true, true]);
    expect(budget.spentMs).toBe(1000);
  });

  it('looks again for what is left when a read used less than it could', () => {
    const budget = new CpuBudget(1000);
    const read = fakeRead(0.5);
    budget.meter(read.meter, 1, read.stop);
    vi.advanceTimersByTime(1000);
    expect(read).toMatchObject({ stopped: false, takes: 2 });
    expect(budget.spentMs).toBe(500);
    // The next look 500 ms later finds 750 spent, and so on until it is all spent (CPU at half the wall-clock rate).
    vi.advanceTimersByTime(500);
    expect(budget.spentMs).toBe(750);
    vi.advanceTimersByTime(600);
    expect(read.stopped).toBe(true);
    expect(budget.exhausted).toBe(true);
  });

  it('spends what a read used last when it ends, and looks no more once no read is metered', () => {
    const budget = new CpuBudget(1000);
    const read = fakeRead();
    const end = budget.meter(read.meter, 1, read.stop);
    vi.advanceTimersByTime(300);
    end();
    expect(budget.spentMs).toBe(300);
    expect(vi.getTimerCount()).toBe(0);
    end();
    expect(budget.spentMs).toBe(300);
    expect(read.stopped).toBe(false);
  });

  it('stops at once a read that starts on a spent budget', () => {
    const budget = new CpuBudget(1000);
    budget.spend(1000);
    const read = fakeRead();
    const end = budget.meter(read.meter, 1, read.stop);
    expect(read.stopped).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
    end();
    expect(budget.spentMs).toBe(1000);
  });
});
