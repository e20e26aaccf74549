import { useEffect, useState } from 'react';
import { readLocalRecord, type LocalRecord } from '../../lib/localRecords';

/** After this long a load says it is slow, so nobody thinks the page is stuck. */
export const SLOW_LOAD_MS = 5_000;

/** True once `active` has stayed true for SLOW_LOAD_MS. */
export function useSlowNotice(active: boolean): boolean {
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(() => setSlow(true), SLOW_LOAD_MS);
    return () => {
      clearTimeout(timer);
      setSlow(false);
    };
  }, [active]);
  return active && slow;
}

type LocalState = { status: 'idle' | 'loading' } | { status: 'done'; record: LocalRecord | null } | { status: 'error'; message: string };

/** A local- record from the browser's database; idle when `id` is null. */
export function useLocalRecord(id: string | null): LocalState {
  // The answer is kept with the id it is for: another id reads as loading until its own answer comes.
  const [answer, setAnswer] = useState<{ id: string; state: LocalState } | null>(null);
  useEffect(() => {
    if (!id) return;
    let live = true;
    readLocalRecord(id)
      .then((record) => live && setAnswer({ id, state: { status: 'done', record } }))
      .catch((error: unknown) => live && setAnswer({ id, state: { status: 'error', message: error instanceof Error ? error.message : String(error) } }));
    return () => {
      live = false;
    };
  }, [id]);
  if (!id) return { status: 'idle' };
  return answer?.id === id ? answer.state : { status: 'loading' };
}
