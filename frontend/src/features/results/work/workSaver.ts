import { WorkSaveError, type LoadedWork, type WorkStore } from './workStores';

/*
 * Saves a view's work as the person changes it: debounced, one save at a time, the latest document only. A save
 * that fails is tried again with growing pauses, so nothing is lost to a dropped connection; a save another tab
 * got ahead of stops and asks the person which to keep; a save the store refuses (too large, upload deleted) waits
 * for the next change. Plain TypeScript, tested without React.
 */

export type SaveState =
  /** Nothing saved yet and nothing to save. */
  | { state: 'idle' }
  | { state: 'saving' }
  | { state: 'saved' }
  | { state: 'retrying'; message: string }
  /** Another tab or browser saved after this one loaded. */
  | { state: 'stale' }
  | { state: 'refused'; message: string };

export interface SaverTiming {
  debounceMs: number;
  /** Pauses before each retry; the last one repeats. */
  retryMs: readonly number[];
}

export const SAVER_TIMING: SaverTiming = { debounceMs: 500, retryMs: [1000, 2000, 5000, 10_000, 30_000] };

/**
 * JSON with every object's keys sorted, so the same work always reads the same: the server's JSONB gives the keys
 * back in its own order, and a view just opened must not count as changed (it would save, and make another open
 * tab's work stale).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

export class WorkSaver {
  private revision: number;
  /** The document as last stored, as JSON (null: nothing stored). */
  private stored: string | null;
  /** The first document the view reported when nothing was stored: its defaults, which need no save. */
  private defaults: string | undefined;
  /** The newest document not yet stored, as JSON. */
  private pending: string | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private running: Promise<void> | null = null;
  private failures = 0;
  private stopped = false;
  private status: SaveState;
  private readonly listeners = new Set<() => void>();

  constructor(
    private readonly store: WorkStore,
    loaded: LoadedWork,
    private readonly timing: SaverTiming = SAVER_TIMING,
  ) {
    this.revision = loaded.revision;
    this.stored = loaded.document == null ? null : canonicalJson(loaded.document);
    this.status = loaded.revision > 0 ? { state: 'saved' } : { state: 'idle' };
  }

  /** Where the work is kept. */
  get where(): WorkStore['where'] {
    return this.store.where;
  }

  get current(): SaveState {
    return this.status;
  }

  /** Calls `listener` whenever the status changes; answers the unsubscribe. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The newest work, saved or waiting (what a view opened again starts from); null when there is none. */
  latest(): unknown {
    const json = this.pending ?? this.stored;
    return json === null ? null : (JSON.parse(json) as unknown);
  }

  /** The view's work as it is now; saved after the debounce unless it is what is already stored or waiting. */
  change(document: unknown): void {
    const json = canonicalJson(document);
    if (this.stored === null && this.pending === null && this.defaults === undefined) {
      this.defaults = json;
      return;
    }
    if (json === (this.pending ?? this.stored ?? this.defaults)) return;
    this.pending = json;
    if (this.status.state === 'stale' || this.stopped) return;
    this.setStatus({ state: 'saving' });
    this.schedule(this.timing.debounceMs);
  }

  /** Saves what is waiting now (the page is going away, or the view closes). */
  flush(): Promise<void> {
    if (this.status.state === 'stale' || this.stopped) return Promise.resolve();
    clearTimeout(this.timer);
    return this.run();
  }

  /** After a stale save: keep this tab's work, saved over whatever the other tab stored. */
  async keepThisTab(): Promise<void> {
    const latest = await this.store.load();
    this.revision = latest.revision;
    this.pending ??= this.stored;
    this.setStatus({ state: 'saving' });
    await this.run();
  }

  /** Stops for good, dropping what is waiting (the person chose the other tab's work). */
  discard(): void {
    this.stopped = true;
    this.pending = null;
    clearTimeout(this.timer);
    this.listeners.clear();
  }

  private schedule(ms: number): void {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.run(), ms);
  }

  private setStatus(status: SaveState): void {
    this.status = status;
    for (const listener of this.listeners) listener();
  }

  private run(): Promise<void> {
    // One save at a time: a change made meanwhile is saved when this one ends.
    this.running ??= this.saveOnce().finally(() => {
      this.running = null;
    });
    return this.running;
  }

  private async saveOnce(): Promise<void> {
    const json = this.pending;
    if (json === null || this.stopped) return;
    this.pending = null;
    try {
      this.revision = await this.store.save(this.revision, JSON.parse(json) as unknown);
      this.stored = json;
      this.failures = 0;
      if (this.pending !== null) this.schedule(this.timing.debounceMs);
      else this.setStatus({ state: 'saved' });
    } catch (error) {
      this.pending ??= json;
      const kind = error instanceof WorkSaveError ? error.kind : 'retry';
      const message = error instanceof Error ? error.message : 'The work was not saved.';
      if (kind === 'stale') {
        this.setStatus({ state: 'stale' });
      } else if (kind === 'refused') {
        this.setStatus({ state: 'refused', message });
      } else {
        const pause = this.timing.retryMs[Math.min(this.failures, this.timing.retryMs.length - 1)]!;
        this.failures += 1;
        this.setStatus({ state: 'retrying', message });
        this.schedule(pause);
      }
    }
  }
}
