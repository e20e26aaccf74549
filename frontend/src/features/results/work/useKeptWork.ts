import type { KeptWorkView } from '@frametext/contracts';
import { useCallback, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useSession } from '../../../lib/auth/hooks';
import { errorMessage } from '../../../lib/api';
import { isLocalId } from '../../../lib/localRecords';
import { useAppDispatch } from '../../../lib/store';
import type { ResultsView } from '../model';
import { WorkSaver, type SaveState } from './workSaver';
import { browserWorkStore, serverWorkStore, type LoadedWork, type WorkStore } from './workStores';

/*
 * A view's kept work: where it lives (workStores), loaded once per page and view and kept in memory with its saver,
 * so switching tabs back and forth restores at once and a save still retrying carries on while another view is
 * shown. The results shell waits for it before showing the view (restore first, then draw).
 */

/** What a view gets: the work to start from (null: none kept) and where to report its work as it changes. */
export interface KeptWork {
  initial: unknown;
  changed(document: unknown): void;
}

/** One saver per page, person and view; dropped only when the person picks another tab's work. */
const savers = new Map<string, WorkSaver>();

interface Source {
  key: string;
  store: WorkStore;
}

function sourceOf(view: ResultsView, name: KeptWorkView, userId: string | null, dispatch: ReturnType<typeof useAppDispatch>): Source {
  const id = view.uploadID;
  if (isLocalId(id)) return { key: `browser:local:${id}:${name}`, store: browserWorkStore('local', id, name) };
  if (view.demo && userId === null) return { key: `browser:demo:${id}:${name}`, store: browserWorkStore('demo', id, name) };
  return { key: `server:${userId ?? ''}:${id}:${name}`, store: serverWorkStore(dispatch, id, name) };
}

const LOAD_RETRY_MS = [1000, 3000];

/** Whether trying again may help: the network or the server failed (a 4xx, or a browser without IndexedDB, will not change). */
function worthRetrying(error: unknown): boolean {
  const status = (error as { status?: unknown } | undefined)?.status;
  if (status === 'FETCH_ERROR' || status === 'TIMEOUT_ERROR') return true;
  return typeof status === 'number' && (status >= 500 || status === 408 || status === 429);
}

/** Loads, trying again a couple of times after a network failure or a server error. */
async function loadWithRetry(store: WorkStore): Promise<LoadedWork> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await store.load();
    } catch (error) {
      if (attempt >= LOAD_RETRY_MS.length || !worthRetrying(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, LOAD_RETRY_MS[attempt]));
    }
  }
}

export type KeptWorkPhase =
  | { phase: 'loading' }
  /** The work could not be read: the view starts fresh and nothing is saved. */
  | { phase: 'unavailable'; message: string; retry(): void }
  | { phase: 'ready'; work: KeptWork; where: 'server' | 'browser'; status: SaveState; keepThisTab(): void; loadNewer(): void; generation: number };

const IDLE: SaveState = { state: 'idle' };
const noSubscription = () => () => undefined;

export function useKeptWork(view: ResultsView, name: KeptWorkView): KeptWorkPhase {
  const userId = useSession()?.user.uid ?? null;
  const dispatch = useAppDispatch();
  const source = useMemo(() => sourceOf(view, name, userId, dispatch), [view, name, userId, dispatch]);
  const [generation, setGeneration] = useState(0);
  const [loaded, setLoaded] = useState<{ key: string; generation: number; saver: WorkSaver | null; message?: string } | null>(null);

  // Work this page already read (the view was open before) is used at once; otherwise it is read first.
  const cached = savers.get(source.key);
  useEffect(() => {
    if (savers.has(source.key)) return;
    let live = true;
    loadWithRetry(source.store).then(
      (work) => {
        const saver = savers.get(source.key) ?? new WorkSaver(source.store, work);
        savers.set(source.key, saver);
        if (live) setLoaded({ key: source.key, generation, saver });
      },
      (error: unknown) => {
        if (live) setLoaded({ key: source.key, generation, saver: null, message: errorMessage(error, 'Your saved work could not be loaded.') });
      },
    );
    return () => {
      live = false;
    };
  }, [source, generation]);

  const current = cached ? { saver: cached, message: undefined } : loaded && loaded.key === source.key && loaded.generation === generation ? loaded : null;
  const saver = current?.saver ?? null;

  // Leaving the view or the page: what waits for the debounce is saved now (a server save survives the page going).
  useEffect(() => {
    if (!saver) return;
    const onHide = () => void saver.flush();
    const onVisibility = () => document.visibilityState === 'hidden' && onHide();
    window.addEventListener('pagehide', onHide);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('pagehide', onHide);
      document.removeEventListener('visibilitychange', onVisibility);
      onHide();
    };
  }, [saver]);

  const status = useSyncExternalStore(saver?.subscribe ?? noSubscription, () => saver?.current ?? IDLE);
  // The view's starting work is read once per saver; later renders must not hand it a new object.
  const work = useMemo<KeptWork | null>(() => (saver ? { initial: saver.latest(), changed: (doc) => saver.change(doc) } : null), [saver]);
  const keepThisTab = useCallback(() => void saver?.keepThisTab(), [saver]);
  const loadNewer = useCallback(() => {
    saver?.discard();
    savers.delete(source.key);
    setGeneration((g) => g + 1);
  }, [saver, source.key]);

  if (!current) return { phase: 'loading' };
  if (!work || !saver) return { phase: 'unavailable', message: current.message ?? 'Your saved work could not be loaded.', retry: () => setGeneration((g) => g + 1) };
  return { phase: 'ready', work, where: saver.where, status, keepThisTab, loadNewer, generation };
}

/** Reports the view's work whenever it changes (`document` should be memoised on the state it is made of). */
export function useReportWork(work: KeptWork | undefined, document: unknown): void {
  useEffect(() => {
    work?.changed(document);
  }, [work, document]);
}
