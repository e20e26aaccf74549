import type { Knex } from '@frametext/service-kit';
import type { Engine, MediaContent, SortPreference, UploadKind } from '@frametext/contracts';

export type UploadRowKind = UploadKind | 'local';
/**
 * `reserving`: stored, billing being asked for the hold (not the user's upload yet: it reads as missing);
 * `uploading`: held, URLs handed out; `downloading`: held, a video by link being fetched on the server;
 * `uploaded`: in the pipeline; `failed`: for good.
 */
export type UploadRowStatus = 'reserving' | 'uploading' | 'downloading' | 'uploaded' | 'failed';

/** One upload as the service stores it. */
export interface UploadRecord {
  id: string;
  userId: string;
  name: string;
  kind: UploadRowKind;
  engine: Engine;
  mediaContent: MediaContent;
  intervalSeconds: number | null;
  slideDetection: boolean;
  sortPreference: SortPreference | null;
  originalLanguage: string | null;
  targetLanguage: string | null;
  mimeType: string;
  /** The names the user's files had, in request order (one for a video, one per photo); null for browser-cut frames. */
  fileNames: string[] | null;
  /** ms from the start for browser-cut frames, capture times for photos, null for a video. */
  timestamps: number[] | null;
  durationSeconds: number | null;
  framesRequested: number;
  framesAllowed: number;
  creditCost: number;
  objectKeys: string[];
  status: UploadRowStatus;
  failureCode: string | null;
  failureReason: string | null;
  createdAt: Date;
  completedAt: Date | null;
  /** Where the checked objects were sealed at uploadComplete (request order); the pipeline reads these. */
  sealedKeys: string[] | null;
  /** When what was written at the presigned keys (objectKeys) was removed, after the URLs expired. */
  originalsSweptAt: Date | null;
  /** Bytes the client said its files have (getUploadURL); counted against the quota while the upload is open. */
  declaredBytes: number | null;
  /** Bytes of the sealed objects; counted against the quota once uploaded. */
  sourceBytes: number | null;
  /** When the upload was deleted (its objects are gone); it no longer counts. */
  deletedAt: Date | null;
  /** A video by link: the address it is fetched from; null for files sent by the client. */
  sourceLink: string | null;
  /** A video by link whose interval is chosen once its length is known (POST /v1/videos:annotate). */
  intervalAuto: boolean;
  /** How far the fetch of a video by link is (percent when its size is known, bytes). */
  downloadPercent: number | null;
  downloadBytes: number | null;
}

type SetLater =
  | 'status'
  | 'failureCode'
  | 'failureReason'
  | 'createdAt'
  | 'completedAt'
  | 'sealedKeys'
  | 'originalsSweptAt'
  | 'declaredBytes'
  | 'sourceBytes'
  | 'deletedAt'
  | 'sourceLink'
  | 'intervalAuto'
  | 'downloadPercent'
  | 'downloadBytes';

export type NewUpload = Omit<UploadRecord, SetLater> & {
  status?: UploadRowStatus;
  completedAt?: Date | null;
  declaredBytes?: number | null;
  sourceLink?: string | null;
  intervalAuto?: boolean;
};

interface UploadRow {
  id: string;
  user_id: string;
  name: string;
  kind: UploadRowKind;
  engine: Engine;
  media_content: MediaContent;
  interval_seconds: number | null;
  slide_detection: boolean;
  sort_preference: SortPreference | null;
  original_language: string | null;
  target_language: string | null;
  mime_type: string;
  file_names: string[] | null;
  timestamps: number[] | null;
  duration_seconds: number | null;
  frames_requested: number;
  frames_allowed: number;
  credit_cost: number;
  object_keys: string[];
  status: UploadRowStatus;
  failure_code: string | null;
  failure_reason: string | null;
  created_at: Date;
  completed_at: Date | null;
  sealed_keys: string[] | null;
  originals_swept_at: Date | null;
  /** bigint columns arrive as strings. */
  declared_bytes: string | null;
  source_bytes: string | null;
  deleted_at: Date | null;
  source_link: string | null;
  interval_auto: boolean;
  download_percent: number | null;
  download_bytes: string | null;
}

const bytes = (v: string | null) => (v === null ? null : Number(v));

function fromRow(r: UploadRow): UploadRecord {
  return {
    id: r.id,
    userId: r.user_id,
    name: r.name,
    kind: r.kind,
    engine: r.engine,
    mediaContent: r.media_content,
    intervalSeconds: r.interval_seconds,
    slideDetection: r.slide_detection,
    sortPreference: r.sort_preference,
    originalLanguage: r.original_language,
    targetLanguage: r.target_language,
    mimeType: r.mime_type,
    fileNames: r.file_names,
    timestamps: r.timestamps,
    durationSeconds: r.duration_seconds,
    framesRequested: r.frames_requested,
    framesAllowed: r.frames_allowed,
    creditCost: r.credit_cost,
    objectKeys: r.object_keys,
    status: r.status,
    failureCode: r.failure_code,
    failureReason: r.failure_reason,
    createdAt: r.created_at,
    completedAt: r.completed_at,
    sealedKeys: r.sealed_keys,
    originalsSweptAt: r.originals_swept_at,
    declaredBytes: bytes(r.declared_bytes),
    sourceBytes: bytes(r.source_bytes),
    deletedAt: r.deleted_at,
    sourceLink: r.source_link,
    intervalAuto: r.interval_auto,
    downloadPercent: r.download_percent,
    downloadBytes: bytes(r.download_bytes),
  };
}

const json = (v: unknown) => (v === null || v === undefined ? null : JSON.stringify(v));

/** Stores a new upload; answers false when the user already has one with this id (a replayed local log). */
export async function insertUpload(db: Knex | Knex.Transaction, u: NewUpload): Promise<boolean> {
  const inserted = await db('uploads')
    .insert({
      id: u.id,
      user_id: u.userId,
      name: u.name,
      kind: u.kind,
      engine: u.engine,
      media_content: u.mediaContent,
      interval_seconds: u.intervalSeconds,
      slide_detection: u.slideDetection,
      sort_preference: u.sortPreference,
      original_language: u.originalLanguage,
      target_language: u.targetLanguage,
      mime_type: u.mimeType,
      file_names: json(u.fileNames),
      timestamps: json(u.timestamps),
      duration_seconds: u.durationSeconds,
      frames_requested: u.framesRequested,
      frames_allowed: u.framesAllowed,
      credit_cost: u.creditCost,
      object_keys: JSON.stringify(u.objectKeys),
      status: u.status ?? 'uploading',
      completed_at: u.completedAt ?? null,
      declared_bytes: u.declaredBytes ?? null,
      source_link: u.sourceLink ?? null,
      interval_auto: u.intervalAuto ?? false,
    })
    .onConflict(['user_id', 'id'])
    .ignore()
    .returning('id');
  return inserted.length > 0;
}

/**
 * The user's upload, or undefined (another user's id reads as missing, and so does an upload whose start is still
 * reserving credits: its id has not been handed out). `forUpdate` locks it in a transaction.
 */
export async function findUpload(db: Knex | Knex.Transaction, userId: string, id: string, opts: { forUpdate?: boolean } = {}): Promise<UploadRecord | undefined> {
  const query = db<UploadRow>('uploads').where({ user_id: userId, id }).whereNot('status', 'reserving').first();
  const row = (await (opts.forUpdate ? query.forUpdate() : query)) as UploadRow | undefined;
  return row ? fromRow(row) : undefined;
}

/** Locks the user's uploads among `ids` (reserving ones excepted: their ids have not been handed out), in id order. */
export async function lockUploadsAmong(trx: Knex.Transaction, userId: string, ids: readonly string[]): Promise<UploadRecord[]> {
  const rows = (await trx<UploadRow>('uploads').where({ user_id: userId }).whereIn('id', [...new Set(ids)]).whereNot('status', 'reserving').orderBy('id').forUpdate()) as UploadRow[];
  return rows.map(fromRow);
}

/** Settles an upload as uploaded, with the keys its objects were sealed at and their bytes. */
export async function markUploaded(trx: Knex.Transaction, userId: string, id: string, completedAt: Date, sealed: { keys: string[]; bytes: number }): Promise<void> {
  await trx('uploads')
    .where({ user_id: userId, id })
    .update({ status: 'uploaded', completed_at: completedAt, sealed_keys: JSON.stringify(sealed.keys), source_bytes: sealed.bytes });
}

export async function markFailed(trx: Knex.Transaction, userId: string, id: string, failure: { code: string; reason: string }): Promise<void> {
  await trx('uploads').where({ user_id: userId, id }).update({ status: 'failed', failure_code: failure.code, failure_reason: failure.reason });
}

/**
 * The hold is in: the reserving upload opens with what billing allowed, `uploading` (its URLs are handed out) or
 * `downloading` (a video by link, fetched now). False when it is no longer reserving (the sweep cancelled it).
 */
export async function openReservedUpload(
  db: Knex,
  userId: string,
  id: string,
  quote: { framesAllowed: number; creditCost: number },
  status: 'uploading' | 'downloading' = 'uploading',
): Promise<boolean> {
  const heartbeat = status === 'downloading' ? { download_heartbeat_at: db.fn.now(), download_bytes: 0 } : {};
  const n = await db('uploads')
    .where({ user_id: userId, id, status: 'reserving' })
    .update({ status, frames_allowed: quote.framesAllowed, credit_cost: quote.creditCost, ...heartbeat });
  return n > 0;
}

/** A fetch's progress, and that it is alive; false when the upload is no longer downloading (deleted, or the sweep failed it). */
export async function recordDownloadProgress(db: Knex, userId: string, id: string, progress: { percent: number | null; bytes: number }): Promise<boolean> {
  const n = await db('uploads')
    .where({ user_id: userId, id, status: 'downloading' })
    .update({ download_percent: progress.percent, download_bytes: progress.bytes, download_heartbeat_at: db.fn.now() });
  return n > 0;
}

/**
 * The fetched video is stored at `objectKey`: the upload becomes `uploading` with what was measured, ready to be
 * completed as an uploaded file is. False when it is no longer downloading.
 */
export async function finishDownload(
  db: Knex,
  userId: string,
  id: string,
  fetched: { objectKey: string; mimeType: string; durationSeconds: number; intervalSeconds: number | null; bytes: number },
): Promise<boolean> {
  const n = await db('uploads')
    .where({ user_id: userId, id, status: 'downloading' })
    .update({
      status: 'uploading',
      object_keys: JSON.stringify([fetched.objectKey]),
      mime_type: fetched.mimeType,
      duration_seconds: fetched.durationSeconds,
      interval_seconds: fetched.intervalSeconds,
      download_percent: 100,
      download_bytes: fetched.bytes,
      download_heartbeat_at: db.fn.now(),
    });
  return n > 0;
}

/** Locks up to `limit` downloading uploads whose fetch has said nothing since `before`, skipping locked ones. */
export function lockSilentDownloads(trx: Knex.Transaction, before: Date, limit: number): Promise<{ id: string; userId: string }[]> {
  return lockStale(trx, 'downloading', before, limit, 'download_heartbeat_at');
}

/** Billing refused the hold, so nothing is held: the reserving upload leaves no trace. */
export async function deleteReservingUpload(db: Knex, userId: string, id: string): Promise<void> {
  await db('uploads').where({ user_id: userId, id, status: 'reserving' }).del();
}

/** Fails an upload still in `status`; false when it has moved on (or was failed already). */
export async function failUploadIn(trx: Knex.Transaction, status: UploadRowStatus, userId: string, id: string, failure: { code: string; reason: string }): Promise<boolean> {
  const n = await trx('uploads').where({ user_id: userId, id, status }).update({ status: 'failed', failure_code: failure.code, failure_reason: failure.reason });
  return n > 0;
}

/**
 * Locks up to `limit` uploads still in `status` whose `since` (by default their creation) is before `before`, oldest
 * first, skipping those another transaction holds (uploadComplete settling one, or another replica's sweep).
 */
export async function lockStale(trx: Knex.Transaction, status: UploadRowStatus, before: Date, limit: number, since: 'created_at' | 'download_heartbeat_at' = 'created_at'): Promise<{ id: string; userId: string }[]> {
  const rows = await trx('uploads')
    .where({ status })
    .andWhere(since, '<', before)
    .orderBy(since)
    .limit(limit)
    .forUpdate()
    .skipLocked()
    .select<{ id: string; user_id: string }[]>('id', 'user_id');
  return rows.map((r) => ({ id: r.id, userId: r.user_id }));
}

/**
 * Settled uploads (not local runs) created before `before` whose presigned keys have not been swept yet, oldest
 * first: their URLs have expired, so whatever sits at those keys now can be removed for good.
 */
export async function uploadsToSweep(db: Knex, before: Date, limit: number): Promise<UploadRecord[]> {
  const rows = (await db<UploadRow>('uploads')
    .whereNull('originals_swept_at')
    .whereNot('kind', 'local')
    .whereNotIn('status', ['uploading', 'downloading'])
    .andWhere('created_at', '<', before)
    .orderBy('created_at')
    .limit(limit)) as UploadRow[];
  return rows.map(fromRow);
}

export async function markOriginalsSwept(db: Knex, userId: string, id: string, at: Date): Promise<void> {
  await db('uploads').where({ user_id: userId, id }).update({ originals_swept_at: at });
}

/** What a user's uploads hold in the store, in bytes: sealed bytes of live uploaded ones (one upload left out, if named). */
export async function storedBytes(db: Knex | Knex.Transaction, userId: string, except?: string): Promise<number> {
  const query = db('uploads').where({ user_id: userId, status: 'uploaded' }).whereNull('deleted_at').sum({ total: 'source_bytes' });
  if (except) void query.whereNot('id', except);
  const [row] = (await query) as { total: string | null }[];
  return Number(row?.total ?? 0);
}

/** Bytes declared for a user's uploads still open (their files may be arriving now). */
export async function promisedBytes(db: Knex | Knex.Transaction, userId: string): Promise<number> {
  const [row] = (await db('uploads').where({ user_id: userId, status: 'uploading' }).whereNull('deleted_at').sum({ total: 'declared_bytes' })) as { total: string | null }[];
  return Number(row?.total ?? 0);
}

/** The user's live uploaded uploads that count sealed bytes, with their sealed keys (to see whether they still exist). */
export async function countedUploads(db: Knex, userId: string): Promise<{ id: string; sealedKeys: string[] }[]> {
  const rows = (await db('uploads')
    .where({ user_id: userId, status: 'uploaded' })
    .whereNull('deleted_at')
    .whereNotNull('source_bytes')
    .select('id', 'sealed_keys')) as { id: string; sealed_keys: string[] | null }[];
  return rows.map((r) => ({ id: r.id, sealedKeys: r.sealed_keys ?? [] }));
}

/** Marks uploads deleted (their objects are gone); answers how many were not marked yet. */
export async function markDeleted(db: Knex | Knex.Transaction, userId: string, ids: readonly string[], at: Date): Promise<number> {
  if (ids.length === 0) return 0;
  return db('uploads').where({ user_id: userId }).whereIn('id', ids).whereNull('deleted_at').update({ deleted_at: at });
}

const QUOTA_LOCK_CLASS = 0x51554f54; // "QUOT"

/** Serialises quota decisions of one user until the transaction ends (two uploads completing at once). */
export async function lockUserQuota(trx: Knex.Transaction, userId: string): Promise<void> {
  // The first key names this lock's purpose, so it never meets another advisory lock of the schema.
  await trx.raw('select pg_advisory_xact_lock(?, hashtext(?))', [QUOTA_LOCK_CLASS, userId]);
}

const ACCOUNT_LOCK_CLASS = 0x41434354; // "ACCT"

/**
 * Serialises storing a user's new uploads with the deletion of their account, until the transaction ends: either the
 * upload is stored first and the deletion cancels it, or the deletion comes first and the upload is refused.
 */
export async function lockUserAccount(trx: Knex.Transaction, userId: string): Promise<void> {
  await trx.raw('select pg_advisory_xact_lock(?, hashtext(?))', [ACCOUNT_LOCK_CLASS, userId]);
}

/** Remembers that a person deleted their account; false when it was already known (a re-published event). */
export async function rememberDeletedUser(trx: Knex.Transaction, userId: string, deletedAt: Date): Promise<boolean> {
  const rows = await trx('deleted_users').insert({ user_id: userId, deleted_at: deletedAt }).onConflict('user_id').ignore().returning('user_id');
  return rows.length > 0;
}

export async function isDeletedUser(db: Knex | Knex.Transaction, userId: string): Promise<boolean> {
  return (await db('deleted_users').where({ user_id: userId }).first('user_id')) !== undefined;
}

/** Locks a user's uploads still being started, uploaded or fetched (reserving, uploading, downloading), the ones that may hold credits. */
export async function lockOpenUploads(trx: Knex.Transaction, userId: string): Promise<{ id: string; status: 'reserving' | 'uploading' | 'downloading' }[]> {
  return trx('uploads').where({ user_id: userId }).whereIn('status', ['reserving', 'uploading', 'downloading']).orderBy('id').forUpdate().select('id', 'status');
}

/** What a deleted upload's row stops saying: its name, its files' names and its failure sentence (which may quote one). */
const NAMES_ERASED = { name: '', file_names: null, failure_reason: null };

/**
 * Forgets a deleted account's uploads: none counts towards the quota any more, and the rows keep ids, keys, sizes and
 * statuses but no names, file names or failure sentences (which may quote file names). Answers how many rows.
 */
export async function forgetUploadsOf(trx: Knex.Transaction, userId: string, at: Date): Promise<number> {
  return trx('uploads')
    .where({ user_id: userId })
    .update({ deleted_at: trx.raw('coalesce(deleted_at, ?)', [at]), ...NAMES_ERASED });
}

/** Erases the names of uploads results deleted; the rows keep ids, keys, sizes and statuses. */
export async function eraseUploadNames(db: Knex | Knex.Transaction, userId: string, ids: readonly string[]): Promise<number> {
  if (ids.length === 0) return 0;
  return db('uploads').where({ user_id: userId }).whereIn('id', ids).update(NAMES_ERASED);
}
