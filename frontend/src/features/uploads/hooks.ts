import type { UploadListItem } from '@frametext/contracts';
import { useCallback, useEffect, useState } from 'react';
import { listLocalUploads } from './localUploads';

/** Local uploads from the browser's database; `reload` reads them again (after a delete). */
export function useLocalUploads() {
  const [items, setItems] = useState<UploadListItem[]>([]);
  const [loading, setLoading] = useState(true);
  const [failed, setFailed] = useState(false);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    let live = true;
    listLocalUploads()
      .then((found) => {
        if (!live) return;
        setItems(found);
        setFailed(false);
      })
      .catch(() => {
        if (live) setFailed(true);
      })
      .finally(() => {
        if (live) setLoading(false);
      });
    return () => {
      live = false;
    };
  }, [generation]);

  const reload = useCallback(() => setGeneration((g) => g + 1), []);
  return { items, loading, failed, reload };
}

/** Statuses that will change on their own: the list refreshes while any upload has one. */
export const isInProgress = (status: UploadListItem['status']) => status === 'downloading' || status === 'uploaded' || status === 'processing';

/** The spec's badge: Processing for uploaded (and processing), Failed for failed, none once processed. */
export function badgeFor(status: UploadListItem['status']): { text: string; kind: 'processing' | 'failed' } | null {
  if (status === 'failed') return { text: 'Failed', kind: 'failed' };
  if (status === 'processed') return null;
  return { text: 'Processing', kind: 'processing' };
}

export function formatUploadDate(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}
