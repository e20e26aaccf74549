import type { UploadListItem } from '@frametext/contracts';
import { openDB, type IDBPDatabase } from 'idb';

/*
 * Uploads made on the Local page stay in the browser: database resultsDB, object store results, key id
 * (spec section 3). The list shows them beside the server's uploads and deletes them here, never on the server.
 */

const DB_NAME = 'resultsDB';
const STORE = 'results';
export const LOCAL_PREFIX = 'local-';

/** The fields of a local record the list reads; the Local page owns the rest. */
export interface LocalRecordSummary {
  id: string;
  fileName?: string;
  uploadedAt?: string | number;
  data?: { thumb?: string }[];
}

export const isLocalId = (id: string) => id.startsWith(LOCAL_PREFIX);

/**
 * Opens the database at its current version. When it does not exist yet it is created at version 1 with the
 * results store, which is what the Local page expects to find.
 */
async function openResultsDb(): Promise<IDBPDatabase | null> {
  if (typeof indexedDB === 'undefined') return null;
  return openDB(DB_NAME, undefined, {
    upgrade(db) {
      if (!db.objectStoreNames.contains(STORE)) db.createObjectStore(STORE, { keyPath: 'id' });
    },
  });
}

function toIso(value: string | number | undefined): string {
  const date = value === undefined ? new Date(NaN) : new Date(value);
  return Number.isNaN(date.getTime()) ? new Date(0).toISOString() : date.toISOString();
}

/** A local record as an upload card: always processed and numerical (spec section 3). */
export function localRecordToItem(record: LocalRecordSummary): UploadListItem {
  return {
    id: record.id,
    uploadName: record.fileName || record.id,
    uploadedAt: toIso(record.uploadedAt),
    imageUrl: record.data?.[0]?.thumb ?? null,
    status: 'processed',
    mediaContent: 'numerical',
    isLocal: true,
    ocrType: 'local',
  };
}

export async function listLocalUploads(): Promise<UploadListItem[]> {
  const db = await openResultsDb();
  if (!db) return [];
  try {
    if (!db.objectStoreNames.contains(STORE)) return [];
    const records = (await db.getAll(STORE)) as LocalRecordSummary[];
    return records.filter((r) => typeof r.id === 'string' && isLocalId(r.id)).map(localRecordToItem);
  } finally {
    db.close();
  }
}

export async function deleteLocalUploads(ids: string[]): Promise<void> {
  const db = await openResultsDb();
  if (!db) return;
  try {
    if (!db.objectStoreNames.contains(STORE)) return;
    const tx = db.transaction(STORE, 'readwrite');
    await Promise.all([...ids.map((id) => tx.store.delete(id)), tx.done]);
  } finally {
    db.close();
  }
}
