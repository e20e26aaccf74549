import { openDB } from 'idb';
import type { LocalRecord } from './model';

/**
 * Reads one record of resultsDB/results, where the Local page saves its runs. Opened at its current version; when
 * it does not exist yet it is created (version 1) with the store the Local page expects, never left without it.
 */
export async function readLocalRecord(id: string): Promise<LocalRecord | null> {
  if (typeof indexedDB === 'undefined') return null;
  const db = await openDB('resultsDB', undefined, {
    upgrade(created) {
      if (!created.objectStoreNames.contains('results')) created.createObjectStore('results', { keyPath: 'id' });
    },
  });
  try {
    if (!db.objectStoreNames.contains('results')) return null;
    return ((await db.get('results', id)) as LocalRecord | undefined) ?? null;
  } finally {
    db.close();
  }
}
