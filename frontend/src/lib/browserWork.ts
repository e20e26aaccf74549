import { openDB, type IDBPDatabase } from 'idb';

/*
 * A person's work in the results views, kept in this browser for what the server does not keep: local
 * uploads, and the demo while signed out. Its own database, so the spec's resultsDB keeps its one store. One record
 * per (scope, upload, view), with a revision counted like the server's, so two tabs do not undo each other.
 */

export const WORK_DB_NAME = 'frametextWork';
const STORE = 'work';

/** Whose work: a local upload's, or the demo's as a signed-out person left it. */
export type BrowserWorkScope = 'local' | 'demo';

export interface BrowserWorkRecord {
  key: string;
  uploadId: string;
  revision: number;
  document: unknown;
  updatedAt: number;
}

/** Another tab saved first: the record's revision is no longer the one the save was based on. */
export class BrowserWorkStale extends Error {
  constructor(readonly revision: number) {
    super(`This work was changed in another tab (revision ${revision}).`);
  }
}

export const browserWorkKey = (scope: BrowserWorkScope, uploadId: string, view: string) => `${scope}:${uploadId}:${view}`;

async function openWorkDb(): Promise<IDBPDatabase | null> {
  if (typeof indexedDB === 'undefined') return null;
  return openDB(WORK_DB_NAME, 1, {
    upgrade(db) {
      const store = db.createObjectStore(STORE, { keyPath: 'key' });
      store.createIndex('uploadId', 'uploadId');
    },
  });
}

/** Whether this browser can keep work (no IndexedDB in some private modes). */
export const browserKeepsWork = () => typeof indexedDB !== 'undefined';

export async function readBrowserWork(key: string): Promise<BrowserWorkRecord | null> {
  const db = await openWorkDb();
  if (!db) return null;
  try {
    return ((await db.get(STORE, key)) as BrowserWorkRecord | undefined) ?? null;
  } finally {
    db.close();
  }
}

/**
 * Stores the document as the revision after `basedOn`, in one transaction with the check that `basedOn` is still
 * the stored revision (0: none stored). Answers the new revision; throws BrowserWorkStale when another tab saved first.
 */
export async function writeBrowserWork(key: string, uploadId: string, basedOn: number, document: unknown): Promise<number> {
  const db = await openWorkDb();
  if (!db) throw new Error('This browser cannot keep work (no IndexedDB).');
  try {
    const tx = db.transaction(STORE, 'readwrite');
    const current = ((await tx.store.get(key)) as BrowserWorkRecord | undefined)?.revision ?? 0;
    if (current !== basedOn) {
      tx.done.catch(() => undefined);
      tx.abort();
      throw new BrowserWorkStale(current);
    }
    const record: BrowserWorkRecord = { key, uploadId, revision: basedOn + 1, document, updatedAt: Date.now() };
    await tx.store.put(record);
    await tx.done;
    return record.revision;
  } finally {
    db.close();
  }
}

/** Removes every view's work kept for these uploads (their local records were deleted). */
export async function deleteBrowserWorkOf(uploadIds: readonly string[]): Promise<void> {
  const db = await openWorkDb();
  if (!db) return;
  try {
    const tx = db.transaction(STORE, 'readwrite');
    for (const id of uploadIds) {
      for (const key of await tx.store.index('uploadId').getAllKeys(id)) await tx.store.delete(key);
    }
    await tx.done;
  } finally {
    db.close();
  }
}
