import type { Knex } from '@frametext/service-kit';
import type { Engine, MediaContent, SortPreference, UploadKind } from '@frametext/contracts';

export type UploadRowKind = UploadKind | 'local';
export type UploadRowStatus = 'uploading' | 'uploaded' | 'failed';

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
}

export type NewUpload = Omit<UploadRecord, 'status' | 'failureCode' | 'failureReason' | 'createdAt' | 'completedAt'> & {
  status?: UploadRowStatus;
  completedAt?: Date | null;
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
}

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
    })
    .onConflict(['user_id', 'id'])
    .ignore()
    .returning('id');
  return inserted.length > 0;
}

/** The user's upload, or undefined (another user's id reads as missing). `forUpdate` locks it in a transaction. */
export async function findUpload(db: Knex | Knex.Transaction, userId: string, id: string, opts: { forUpdate?: boolean } = {}): Promise<UploadRecord | undefined> {
  const query = db<UploadRow>('uploads').where({ user_id: userId, id }).first();
  const row = (await (opts.forUpdate ? query.forUpdate() : query)) as UploadRow | undefined;
  return row ? fromRow(row) : undefined;
}

export async function markUploaded(trx: Knex.Transaction, userId: string, id: string, completedAt: Date): Promise<void> {
  await trx('uploads').where({ user_id: userId, id }).update({ status: 'uploaded', completed_at: completedAt });
}

export async function markFailed(trx: Knex.Transaction, userId: string, id: string, failure: { code: string; reason: string }): Promise<void> {
  await trx('uploads').where({ user_id: userId, id }).update({ status: 'failed', failure_code: failure.code, failure_reason: failure.reason });
}

/** Marks uploads still `uploading` that were created before `before` as failed; answers how many. */
export async function failUploadingBefore(db: Knex, before: Date, failure: { code: string; reason: string }): Promise<number> {
  return db('uploads')
    .where('status', 'uploading')
    .andWhere('created_at', '<', before)
    .update({ status: 'failed', failure_code: failure.code, failure_reason: failure.reason });
}
