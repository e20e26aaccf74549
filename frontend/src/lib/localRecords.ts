import { openDB, type IDBPDatabase } from 'idb';
import { deleteBrowserWorkOf } from './browserWork';

/*
 * Runs of the Local page stay in the browser (spec section 3): database resultsDB, object store results, key id,
 * each record { id: 'local-...', data, uploadedAt, duration, targetFrameRate, fileName, _addedAt }. The Local page
 * saves them, the uploads list shows and deletes them, the results views read them: this module is the one place
 * that opens the database.
 */

export const LOCAL_DB_NAME = 'resultsDB';
export const LOCAL_STORE = 'results';
export const LOCAL_PREFIX = 'local-';

/**
 * Records kept per browser. A record holds a JPEG of every frame (up to 200 at up to 1280 px, ~100 KB each), so 20
 * records stay within a few hundred megabytes, well inside what browsers grant a site, while keeping a month of
 * occasional runs. Saving one more removes the oldest (by `_addedAt`).
 */
export const LOCAL_RECORDS_MAX = 20;

/** A word a local frame kept: its box normalised to the frame (0..1) as x, y, w, h (an object, or an array). */
export interface LocalWord {
  text: string;
  nbox: { x: number; y: number; w: number; h: number } | [number, number, number, number];
  /** Tesseract's word confidence, 0..100. */
  conf?: number;
  /**
   * The run of text the word belongs to (a line cut at wide gaps, as the Basic engine cuts them), numbered
   * within the frame. Words of one run read as one block; records without it read word by word.
   */
  run?: number;
}

/** One frame the Local page read: its time, text, words, JPEG thumbnail (data URL) and the size it was read at. */
export interface LocalFrame {
  t: number;
  text?: string;
  words?: LocalWord[];
  thumb?: string;
  ocrW?: number;
  ocrH?: number;
}

/** A saved local run. */
export interface LocalRecord {
  id: string;
  data: LocalFrame[];
  uploadedAt?: string | number;
  duration?: number;
  targetFrameRate?: number;
  fileName?: string;
  /** When this browser saved it (ms since the epoch): the oldest go first past LOCAL_RECORDS_MAX. */
  _addedAt?: number;
}

export const isLocalId = (id: string) => id.startsWith(LOCAL_PREFIX);

/** A new local id: local-, the time in ms, and a random tail so two tabs saving in the same ms never collide. */
export function newLocalId(now = Date.now()): string {
  const tail = Math.floor(Math.random() * 36 ** 6)
    .toString(36)
    .padStart(6, '0');
  return `${LOCAL_PREFIX}${now}-${tail}`;
}

/**
 * Opens the database at its current version; when it does not exist yet it is created at version 1 with the
 * results store. Null where the browser has no IndexedDB (tests, some private modes).
 */
async function openResultsDb(): Promise<IDBPDatabase | null> {
  if (typeof indexedDB === 'undefined') return null;
  return openDB(LOCAL_DB_NAME, undefined, {
    upgrade(db) {
      if (!db.objectStoreNames.contains(LOCAL_STORE)) db.createObjectStore(LOCAL_STORE, { keyPath: 'id' });
    },
  });
}

async function withDb<T>(empty: T, work: (db: IDBPDatabase) => Promise<T>): Promise<T> {
  const db = await openResultsDb();
  if (!db) return empty;
  try {
    if (!db.objectStoreNames.contains(LOCAL_STORE)) return empty;
    return await work(db);
  } finally {
    db.close();
  }
}

function addedAt(r: LocalRecord): number {
  const ms = r._addedAt ?? (typeof r.uploadedAt === 'number' ? r.uploadedAt : Date.parse(String(r.uploadedAt)));
  return Number.isFinite(ms) ? ms : 0;
}

/** Ids to remove so that `records` keeps at most `max`, oldest first. */
export function idsBeyondLimit(records: readonly LocalRecord[], max = LOCAL_RECORDS_MAX): string[] {
  if (records.length <= max) return [];
  return [...records]
    .sort((a, b) => addedAt(a) - addedAt(b))
    .slice(0, records.length - max)
    .map((r) => r.id);
}

/**
 * Saves a record and, in the same transaction, removes the oldest ones past LOCAL_RECORDS_MAX. Answers the ids
 * removed. Throws when the browser has no IndexedDB or refuses the write (quota).
 */
export async function saveLocalRecord(record: LocalRecord, max = LOCAL_RECORDS_MAX): Promise<string[]> {
  const db = await openResultsDb();
  if (!db) throw new Error('This browser cannot store results (no IndexedDB).');
  try {
    const tx = db.transaction(LOCAL_STORE, 'readwrite');
    await tx.store.put({ ...record, _addedAt: record._addedAt ?? Date.now() });
    const all = (await tx.store.getAll()) as LocalRecord[];
    const removed = idsBeyondLimit(all.filter((r) => typeof r.id === 'string' && isLocalId(r.id)), max).filter((id) => id !== record.id);
    await Promise.all(removed.map((id) => tx.store.delete(id)));
    await tx.done;
    return removed;
  } finally {
    db.close();
  }
}

export function readLocalRecord(id: string): Promise<LocalRecord | null> {
  return withDb(null, async (db) => ((await db.get(LOCAL_STORE, id)) as LocalRecord | undefined) ?? null);
}

export function listLocalRecords(): Promise<LocalRecord[]> {
  return withDb([], async (db) => ((await db.getAll(LOCAL_STORE)) as LocalRecord[]).filter((r) => typeof r.id === 'string' && isLocalId(r.id)));
}

/** Deletes the records and the work kept on them in the results views. */
export async function deleteLocalRecords(ids: readonly string[]): Promise<void> {
  await withDb(undefined, async (db) => {
    const tx = db.transaction(LOCAL_STORE, 'readwrite');
    await Promise.all([...ids.map((id) => tx.store.delete(id)), tx.done]);
  });
  await deleteBrowserWorkOf(ids);
}
