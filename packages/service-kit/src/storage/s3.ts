import { Client } from 'minio';
import type { Agent } from 'node:http';
import type { Readable } from 'node:stream';
import { assertValidKey, folderPrefix } from './keys.js';
import { bucketAddress, type BucketAddress, type S3Addressing } from './s3-address.js';
import { StorageNotFoundError, type ObjectInfo, type ObjectStorage, type PresignOptions } from './types.js';

const DEFAULT_EXPIRES_IN = 900;
const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

export interface S3StorageOptions {
  /** `http://host:port` of MinIO or any S3-compatible server, as the services reach it. */
  endpoint: string;
  /**
   * The address browsers use for presigned URLs when they do not reach the store itself: in compose and Kubernetes
   * the gateway's public address, which passes `/<bucket>/...` on to the store (see `publicUrl`).
   */
  publicEndpoint?: string;
  /** Bucket in the path (the default) or in the host name, for every request and presigned URL. */
  addressing?: S3Addressing;
  accessKey: string;
  secretKey: string;
  region: string;
  bucket: string;
  /** Carries the requests to the store (its `lookup` resolves the store's host names); default Node's global agent. */
  agent?: Agent;
}

/** Any S3 server through the `minio` client, in path or virtual-host style. */
export class S3ObjectStorage implements ObjectStorage {
  readonly driver = 's3' as const;
  private readonly client: Client;
  private readonly address: BucketAddress;
  private readonly publicOrigin: string | undefined;
  private readonly bucket: string;
  private readonly region: string;

  constructor(opts: S3StorageOptions) {
    this.address = bucketAddress(opts.endpoint, opts.bucket, opts.addressing ?? 'path');
    this.client = minioClient(opts);
    this.publicOrigin = opts.publicEndpoint ? new URL(opts.publicEndpoint).origin : undefined;
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
    return this.presign('PUT', key, opts);
  }

  async presignGet(key: string, opts: PresignOptions = {}): Promise<string> {
    return this.presign('GET', key, opts);
  }

  /** Signing is offline (the region is known): it never connects. */
  private async presign(method: 'GET' | 'PUT', key: string, opts: PresignOptions): Promise<string> {
    assertValidKey(key);
    const signed = await this.client.presignedUrl(method, this.bucket, key, opts.expiresIn ?? DEFAULT_EXPIRES_IN);
    return this.publicOrigin ? this.publicUrl(signed) : signed;
  }

  /**
   * A URL signed for the store's own host, moved to `<public origin>/<bucket>/<key>?<signature>`: the gateway sends
   * it on to the bucket's address with the Host it was signed for, whichever the addressing style.
   */
  private publicUrl(signed: string): string {
    const url = new URL(signed);
    return `${this.publicOrigin}/${this.bucket}${url.pathname.slice(this.address.pathPrefix.length)}${url.search}`;
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

function minioClient(opts: S3StorageOptions): Client {
  const url = new URL(opts.endpoint);
  const useSSL = url.protocol === 'https:';
  return new Client({
    endPoint: url.hostname,
    port: url.port ? Number(url.port) : useSSL ? 443 : 80,
    useSSL,
    accessKey: opts.accessKey,
    secretKey: opts.secretKey,
    region: opts.region,
    pathStyle: opts.addressing !== 'virtual',
    ...(opts.agent ? { transportAgent: opts.agent } : {}),
  });
}
