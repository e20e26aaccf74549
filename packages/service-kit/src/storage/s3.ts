import { Client } from 'minio';
import type { Readable } from 'node:stream';
import { assertValidKey, folderPrefix } from './keys.js';
import { StorageNotFoundError, type ObjectInfo, type ObjectStorage, type PresignOptions } from './types.js';

const DEFAULT_EXPIRES_IN = 900;
const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

export interface S3StorageOptions {
  /** `http://host:port` of MinIO or any S3-compatible server, as the services reach it. */
  endpoint: string;
  /**
   * The address browsers use for presigned URLs when it differs from `endpoint` (in compose and Kubernetes the
   * gateway's public address, which passes `/<bucket>/...` on to MinIO with the Host header intact).
   */
  publicEndpoint?: string;
  accessKey: string;
  secretKey: string;
  region: string;
  bucket: string;
}

/** MinIO / S3 through the `minio` client, with path-style addressing so any S3-compatible server works. */
export class S3ObjectStorage implements ObjectStorage {
  readonly driver = 's3' as const;
  private readonly client: Client;
  /** Signs presigned URLs for the public address; signing is offline (the region is known), so it never connects. */
  private readonly signer: Client;
  private readonly bucket: string;
  private readonly region: string;

  constructor(opts: S3StorageOptions) {
    this.client = minioClient(opts.endpoint, opts);
    this.signer = opts.publicEndpoint ? minioClient(opts.publicEndpoint, opts) : this.client;
    this.bucket = opts.bucket;
    this.region = opts.region;
  }

  async put(key: string, body: Buffer | Readable, opts: { contentType?: string; size?: number } = {}): Promise<void> {
    assertValidKey(key);
    const size = Buffer.isBuffer(body) ? body.length : opts.size;
    await this.client.putObject(this.bucket, key, body, size, { 'Content-Type': opts.contentType || DEFAULT_CONTENT_TYPE });
  }

  async get(key: string): Promise<Readable> {
    assertValidKey(key);
    try {
      return await this.client.getObject(this.bucket, key);
    } catch (err) {
      if (isNotFound(err)) throw new StorageNotFoundError(key);
      throw err;
    }
  }

  async getBuffer(key: string): Promise<Buffer> {
    const chunks: Buffer[] = [];
    for await (const chunk of await this.get(key)) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  }

  async head(key: string): Promise<ObjectInfo | null> {
    assertValidKey(key);
    try {
      const stat = await this.client.statObject(this.bucket, key);
      const contentType = (stat.metaData as Record<string, unknown>)['content-type'];
      return {
        key,
        size: stat.size,
        contentType: typeof contentType === 'string' ? contentType : DEFAULT_CONTENT_TYPE,
        lastModified: stat.lastModified,
        etag: stat.etag,
      };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  }

  /** CopyObject (one request, up to 5 GiB: the largest single PUT a presigned URL can store); metadata is copied. */
  async copy(from: string, to: string): Promise<void> {
    assertValidKey(from);
    assertValidKey(to);
    if (from === to) {
      // S3 refuses to copy an object onto itself unchanged; the object is already its own copy.
      if (!(await this.head(from))) throw new StorageNotFoundError(from);
      return;
    }
    try {
      await this.client.copyObject(this.bucket, to, `${this.bucket}/${from}`);
    } catch (err) {
      if (isNotFound(err)) throw new StorageNotFoundError(from);
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.client.removeObject(this.bucket, key);
  }

  async list(prefix: string): Promise<string[]> {
    const folder = folderPrefix(prefix);
    const keys: string[] = [];
    for await (const item of this.client.listObjectsV2(this.bucket, folder, true)) {
      const name = (item as { name?: string }).name;
      if (name) keys.push(name);
    }
    return keys.sort();
  }

  async deletePrefix(prefix: string): Promise<number> {
    const keys = await this.list(prefix);
    // S3 deletes at most 1000 keys per request; the client batches them.
    if (keys.length === 0) return 0;
    const answers = await this.client.removeObjects(this.bucket, keys);
    const failed = answers.find((a) => a?.Error && a.Error.Code !== 'NoSuchKey');
    if (failed?.Error) throw new Error(`could not delete ${failed.Error.Key ?? 'an object'} under ${prefix}: ${failed.Error.Code ?? ''} ${failed.Error.Message ?? ''}`.trim());
    return keys.length;
  }

  /**
   * The minio client signs only the Host header of presigned URLs (it deliberately leaves Content-Type out,
   * because browsers rewrite it), so `contentType` cannot be bound here: consumers must check the stored
   * object's real type (the upload service sniffs magic bytes at uploadComplete).
   */
  async presignPut(key: string, opts: PresignOptions = {}): Promise<string> {
    assertValidKey(key);
    return this.signer.presignedUrl('PUT', this.bucket, key, opts.expiresIn ?? DEFAULT_EXPIRES_IN);
  }

  async presignGet(key: string, opts: PresignOptions = {}): Promise<string> {
    assertValidKey(key);
    return this.signer.presignedUrl('GET', this.bucket, key, opts.expiresIn ?? DEFAULT_EXPIRES_IN);
  }

  async ensureReady(): Promise<void> {
    if (await this.client.bucketExists(this.bucket)) return;
    try {
      await this.client.makeBucket(this.bucket, this.region);
    } catch (err) {
      // Another replica created it between our check and our request.
      if (errorCode(err) !== 'BucketAlreadyOwnedByYou' && errorCode(err) !== 'BucketAlreadyExists') throw err;
    }
  }

  async ping(): Promise<void> {
    if (!(await this.client.bucketExists(this.bucket))) throw new Error(`bucket ${this.bucket} does not exist`);
  }
}

function errorCode(err: unknown): unknown {
  return typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
}

function isNotFound(err: unknown): boolean {
  const code = errorCode(err);
  return code === 'NoSuchKey' || code === 'NotFound';
}

function minioClient(endpoint: string, opts: S3StorageOptions): Client {
  const url = new URL(endpoint);
  const useSSL = url.protocol === 'https:';
  return new Client({
    endPoint: url.hostname,
    port: url.port ? Number(url.port) : useSSL ? 443 : 80,
    useSSL,
    accessKey: opts.accessKey,
    secretKey: opts.secretKey,
    region: opts.region,
    pathStyle: true,
  });
}
