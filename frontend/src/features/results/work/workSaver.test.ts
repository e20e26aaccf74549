import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { browserWorkKey, readBrowserWork, writeBrowserWork } from '../../../lib/browserWork';
import { deleteLocalRecords, saveLocalRecord } from '../../../lib/localRecords';
import { WorkSaver, type SaveState } from './workSaver';
import { WorkSaveError, browserWorkStore, type WorkStore } from './workStores';

// The saver over the real IndexedDB store (fake-indexeddb: the IndexedDB API in memory), with short pauses.
const FAST = { debounceMs: 20, retryMs: [30, 60] };
let uploads = 0;
const newUpload = () => `local-test-${(uploads += 1)}`;

async function until(check: () => boolean | Promise<boolean>, ms = 3000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function saverFor(store: WorkStore) {
  const states: SaveState['state'][] = [];
  const saver = new WorkSaver(store, await store.load(), FAST);
  saver.subscribe(() => states.push(saver.current.state));
  return { saver, states };
}

const stored = async (id: string) => (await readBrowserWork(browserWorkKey('local', id, 'region')))?.document;

describe('kept work in the browser', () => {
  it('keeps nothing for a view left as it opened, then saves the latest change once after the pause', async () => {
    const id = newUpload();
    const { saver, states } = await saverFor(browserWorkStore('local', id, 'region'));
    saver.change({ selected: 0 });
    // Nothing waits to be saved: even saving what waits at once stores nothing.
    await saver.flush();
    expect(await stored(id)).toBeUndefined();
    expect(saver.current.state).toBe('idle');

    saver.change({ selected: 1 });
    saver.change({ selected: 2 });
    await until(() => saver.current.state === 'saved');
    expect(await stored(id)).toEqual({ selected: 2 });
    expect((await readBrowserWork(browserWorkKey('local', id, 'region')))?.revision).toBe(1);
    expect(states).toEqual(['saving', 'saving', 'saved']);
    // Opening the view again starts from what was saved.
    const reopened = new WorkSaver(browserWorkStore('local', id, 'region'), await browserWorkStore('local', id, 'region').load(), FAST);
    expect(reopened.latest()).toEqual({ selected: 2 });
    expect(reopened.current.state).toBe('saved');
  });

  it('does not count work read back with its keys in another order as a change (the server\'s JSONB reorders them)', async () => {
    const id = newUpload();
    const store = browserWorkStore('local', id, 'region');
    await writeBrowserWork(browserWorkKey('local', id, 'region'), id, 0, { selected: 1, boxes: [{ norm: { y: 0.2, x: 0.1 }, id: 0 }] });
    const { saver } = await saverFor(store);
    saver.change({ boxes: [{ id: 0, norm: { x: 0.1, y: 0.2 } }], selected: 1 });
    await saver.flush();
    expect(saver.current.state).toBe('saved');
    expect((await readBrowserWork(browserWorkKey('local', id, 'region')))?.revision).toBe(1);
  });

  it('saves what is waiting at once when flushed (the page is hidden)', async () => {
    const id = newUpload();
    const { saver } = await saverFor(browserWorkStore('local', id, 'region'));
    saver.change({ selected: 0 });
    saver.change({ selected: 3 });
    await saver.flush();
    expect(await stored(id)).toEqual({ selected: 3 });
  });

  it('tries a failed save again until it is kept, saying so meanwhile', async () => {
    const id = newUpload();
    const real = browserWorkStore('local', id, 'region');
    let failuresLeft = 2;
    const flaky: WorkStore = {
      ...real,
      save: (basedOn, doc) => (failuresLeft-- > 0 ? Promise.reject(new WorkSaveError('retry', 'Cannot reach FrameText.')) : real.save(basedOn, doc)),
    };
    const { saver, states } = await saverFor(flaky);
    saver.change({ selected: 0 });
    saver.change({ selected: 1 });
    await until(() => saver.current.state === 'saved');
    expect(states).toEqual(['saving', 'retrying', 'retrying', 'saved']);
    expect(await stored(id)).toEqual({ selected: 1 });
  });

  it('stops when another tab saved first, and keeps this tab\'s work only when asked', async () => {
    const id = newUpload();
    const a = await saverFor(browserWorkStore('local', id, 'region'));
    const b = await saverFor(browserWorkStore('local', id, 'region'));
    a.saver.change({ tab: 'a0' });
    b.saver.change({ tab: 'b0' });
    a.saver.change({ tab: 'a' });
    await a.saver.flush();
    b.saver.change({ tab: 'b' });
    await b.saver.flush();
    expect(b.saver.current.state).toBe('stale');
    expect(await stored(id)).toEqual({ tab: 'a' });
    // Further changes wait for the person's choice: not even a flush (the page hidden) saves them.
    b.saver.change({ tab: 'b2' });
    await b.saver.flush();
    expect(b.saver.current.state).toBe('stale');
    expect(await stored(id)).toEqual({ tab: 'a' });
    await b.saver.keepThisTab();
    expect(b.saver.current.state).toBe('saved');
    expect(await stored(id)).toEqual({ tab: 'b2' });
    expect((await readBrowserWork(browserWorkKey('local', id, 'region')))?.revision).toBe(2);
  });

  it('waits for the next change after a save the store refuses', async () => {
    const id = newUpload();
    const real = browserWorkStore('local', id, 'region');
    const picky: WorkStore = {
      ...real,
      save: (basedOn, doc) => ((doc as { big?: boolean }).big ? Promise.reject(new WorkSaveError('refused', 'too large')) : real.save(basedOn, doc)),
    };
    const { saver } = await saverFor(picky);
    saver.change({ big: false, n: 0 });
    saver.change({ big: true });
    await until(() => saver.current.state === 'refused');
    expect(saver.current).toEqual({ state: 'refused', message: 'too large' });
    saver.change({ big: false, n: 1 });
    await until(() => saver.current.state === 'saved');
    expect(await stored(id)).toEqual({ big: false, n: 1 });
  });

  it('refuses a write based on an old revision, and forgets a local upload\'s work with its record', async () => {
    const id = newUpload();
    const key = browserWorkKey('local', id, 'numerical');
    expect(await writeBrowserWork(key, id, 0, { n: 1 })).toBe(1);
    await expect(writeBrowserWork(key, id, 0, { n: 2 })).rejects.toThrow('changed in another tab');
    await writeBrowserWork(browserWorkKey('local', id, 'scroll'), id, 0, { n: 3 });
    const other = newUpload();
    await writeBrowserWork(browserWorkKey('local', other, 'scroll'), other, 0, { n: 4 });

    await saveLocalRecord({ id, data: [] });
    await deleteLocalRecords([id]);
    expect(await readBrowserWork(key)).toBeNull();
    expect(await readBrowserWork(browserWorkKey('local', id, 'scroll'))).toBeNull();
    expect((await readBrowserWork(browserWorkKey('local', other, 'scroll')))?.document).toEqual({ n: 4 });
  });
});
