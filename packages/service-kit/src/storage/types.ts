import type { Readable } from 'node:stream';

export interface ObjectInfo {
  key: string;
  size: number;
  contentType: string;
  lastModified: Date;
  etag?: string;
}

export interface PresignOptions {
  /** Seconds until the URL stops working (default 900). */
  expiresIn?: number;
  /** For PUT: the Content-Type the client must send. */
  contentType?: string;
}

/**
 * The one object-store interface. Keys are slash-separated paths like `uploads/<id>/frames/000015000.jpg`.
 * Two drivers implement it: `s3` (MinIO or any S3-compatible server) and `fs` (one machine; the gateway serves
 * its presigned URLs).
 */
export interface ObjectStorage {
  readonly driver: 'fs' | 's3';
  put(key: string, body: Buffer | Readable, opts?: { contentType?: string; size?: number }): Promise<void>;
  /** Streams an object; rejects with StorageNotFoundError when it does not exist. */
  get(key: string): Promise<Readable>;
  getBuffer(key: string): Promise<Buffer>;
  /** Object metadata, or null when it does not exist. */
  head(key: string): Promise<ObjectInfo | null>;
  /**
   * Copies an object inside the store (no bytes through this process) to `to`, replacing whatever is stored there,
   * with its bytes and content type. Rejects with StorageNotFoundError when `from` does not exist. The copy is an
   * object of its own: writing to or deleting `from` afterwards leaves it exactly as it was.
   */
  copy(from: string, to: string): Promise<void>;
  /** Deletes an object; deleting a missing object is not an error. */
  delete(key: string): Promise<void>;
  /**
   * Keys of every object under the folder `prefix` (`uploads/<id>` lists `uploads/<id>/...`, never
   * `uploads/<id>x/...`), sorted. A trailing slash is optional.
   */
  list(prefix: string): Promise<string[]>;
  /** Deletes every object under the folder `prefix` (same meaning as in list) and answers how many there were. */
  deletePrefix(prefix: string): Promise<number>;
  presignPut(key: string, opts?: PresignOptions): Promise<string>;
  presignGet(key: string, opts?: PresignOptions): Promise<string>;
  /** Creates the bucket or root folder if needed. */
  ensureReady(): Promise<void>;
  /** Throws when the store cannot be reached (readiness). */
  ping(): Promise<void>;
}

export class StorageNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`object not found: ${key}`);
    this.name = 'StorageNotFoundError';
  }
}
