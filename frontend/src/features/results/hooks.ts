import { useEffect, useState } from 'react';
import { readLocalRecord } from './localResults';
import type { LocalRecord } from './model';

/** After this long a load says it is slow, so nobody thinks the page is stuck. */
export const SLOW_LOAD_MS = 5_000;

/** True once `active` has stayed true for SLOW_LOAD_MS. */
export function useSlowNotice(active: boolean): boolean {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    if (!active) {
      setSlow(false);
      return;
    }
    const timer = setTimeout(() => setSlow(true), SLOW_LOAD_MS);
    return () => clearTimeout(timer);
  }, [active]);
  return slow;
}

type LocalState = { status: 'idle' | 'loading' } | { status: 'done'; record: LocalRecord | null } | { status: 'error'; message: string };

/** A local- record from the browser's database; idle when `id` is null. */
export function useLocalRecord(id: string | null): LocalState {
  const [state, setState] = useState<LocalState>({ status: id ? 'loading' : 'idle' });
  useEffect(() => {
    if (!id) return;
    let live = true;
    setState({ status: 'loading' });
    readLocalRecord(id)
      .then((record) => live && setState({ status: 'done', record }))
      .catch((error: unknown) => live && setState({ status: 'error', message: error instanceof Error ? error.message : String(error) }));
    return () => {
      live = false;
    };
  }, [id]);
  return state;
}
