import { describe, expect, it } from 'vitest';
import { heartbeat } from '../src/domain/video-link.js';

/** Resolves once `n` beats of a heartbeat of its own (every 1 ms, as the ones under test) have been written. */
async function beats(n: number): Promise<void> {
  let written = 0;
  await heartbeat(async () => ++written < n, new AbortController().signal, 1);
}

/** A `record` whose writes each wait until the test lets them finish, answering `alive`. */
function heldWrites(alive = true) {
  const writes = { started: 0, running: 0, mostAtOnce: 0, release: [] as (() => void)[] };
  let nextStart: (() => void) | undefined;
  const record = async () => {
    writes.started++;
    writes.mostAtOnce = Math.max(writes.mostAtOnce, ++writes.running);
    nextStart?.();
    await new Promise<void>((resolve) => writes.release.push(resolve));
    writes.running--;
    return alive;
  };
  /** Resolves when the next write starts. */
  const started = () => new Promise<void>((resolve) => (nextStart = resolve));
  return { writes, record, started };
}

describe("a video by link's heartbeat", () => {
  it('writes one at a time: the next wait starts only once the last write is done', async () => {
    const { writes, record, started } = heldWrites();
    const fetchEnded = new AbortController();
    const first = started();
    const beating = heartbeat(record, fetchEnded.signal, 1);
    await first;
    // Many beats pass while the first write hangs: no second write starts beside it.
    await beats(30);
    expect(writes.started).toBe(1);
    const second = started();
    writes.release.shift()!();
    await second;
    expect(writes.mostAtOnce).toBe(1);
    fetchEnded.abort();
    writes.release.shift()!();
    await expect(beating).resolves.toBe(false);
  });

  it('stops when the fetch ends, after the write under way, and writes no more', async () => {
    const { writes, record, started } = heldWrites();
    const fetchEnded = new AbortController();
    const first = started();
    let ended = false;
    const beating = heartbeat(record, fetchEnded.signal, 1).then((deleted) => {
      ended = true;
      return deleted;
    });
    await first;
    fetchEnded.abort();
    await beats(2);
    expect(ended).toBe(false);
    writes.release.shift()!();
    await expect(beating).resolves.toBe(false);
    await beats(10);
    expect(writes.started).toBe(1);
  });

  it('ends, answering so, when a write finds the upload no longer downloading', async () => {
    const { writes, record, started } = heldWrites(false);
    const first = started();
    const beating = heartbeat(record, new AbortController().signal, 1);
    await first;
    writes.release.shift()!();
    await expect(beating).resolves.toBe(true);
    expect(writes.started).toBe(1);
  });
});
