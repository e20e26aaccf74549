import { createHash, randomUUID } from 'node:crypto';
import { constants as fsConstants, createWriteStream } from 'node:fs';
import { access, copyFile, link, mkdir, open, readdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../errors/index.js';
import { assertValidKey, encodeKeyPath, folderPrefix } from './keys.js';
import { SIGNED_PARAMS, sign, verifySignedQuery, type SignedMethod, type Verdict } from './signing.js';
import { StorageNotFoundError, type ObjectInfo, type ObjectStorage, type PresignOptions } from './types.js';

const DEFAULT_EXPIRES_IN = 900;
const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

export interface FsStorageOptions {
  /** Folder holding everything: `data/<key>`, `meta/<key>.json` (the sidecar) and `tmp/` for writes in progress. */
  root: string;
  /** Where the gateway serves `/files`, e.g. `http://localhost:8080`. */
  publicUrl: string;
  signingSecret: string;
}

interface Sidecar {
  contentType: string;
  size: number;
  /** md5 of the bytes, hex: the same value S3 gives a single-part upload. */
  etag: string;
  lastModified: string;
}

/** One machine's object store: files on disk, written atomically, and HMAC-signed URLs served by the gateway. */
export class FsObjectStorage implements ObjectStorage {
  readonly driver = 'fs' as const;
  private readonly dataDir: string;
  private readonly metaDir: string;
  private readonly tmpDir: string;
  private readonly publicUrl: string;

  constructor(private readonly opts: FsStorageOptions) {
    this.dataDir = join(opts.root, 'data');
    this.metaDir = join(opts.root, 'meta');
    this.tmpDir = join(opts.root, 'tmp');
    this.publicUrl = opts.publicUrl.replace(/\/+$/, '');
  }

  async put(key: string, body: Buffer | Readable, opts: { contentType?: string; size?: number } = {}): Promise<void> {
    await this.write(key, Buffer.isBuffer(body) ? Readable.from([body]) : body, { contentType: opts.contentType });
  }

  /**
   * Streams `body` into a temporary file, then renames it into place, so readers see the old object or the new
   * one, never half of one. With `maxBytes`, a larger body is refused with a 413 and nothing is stored.
   */
  async write(key: string, body: Readable, opts: { contentType?: string; maxBytes?: number } = {}): Promise<ObjectInfo> {
    assertValidKey(key);
    await mkdir(this.tmpDir, { recursive: true });
    const tmp = join(this.tmpDir, randomUUID());
    const hash = createHash('md5');
    let size = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _enc, done) {
        size += chunk.length;
        if (opts.maxBytes !== undefined && size > opts.maxBytes) {
          done(new AppError(413, 'storage/too-large', `The object is larger than the limit of ${opts.maxBytes} bytes.`));
          return;
        }
        hash.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(body, meter, createWriteStream(tmp, { flags: 'wx' }));
      const sidecar: Sidecar = {
        contentType: opts.contentType || DEFAULT_CONTENT_TYPE,
        size,
        etag: hash.digest('hex'),
        lastModified: new Date().toISOString(),
      };
      const tmpMeta = `${tmp}.json`;
      await writeFile(tmpMeta, JSON.stringify(sidecar), { flag: 'wx' });
      await this.moveInto(tmp, this.dataPath(key), key);
      await this.moveInto(tmpMeta, this.metaPath(key), key);
      return toInfo(key, sidecar);
    } catch (err) {
      await rm(tmp, { force: true });
      await rm(`${tmp}.json`, { force: true });
      throw err;
    }
  }

  /**
   * A hard link to the source's data file, moved into place like a write, with a sidecar of its own. Every write
   * puts a new file in place (rename) and never changes one, so the copy keeps the bytes it was made from whatever
   * happens to the source afterwards, and costs no disk space until then.
   */
  async copy(from: string, to: string): Promise<void> {
    assertValidKey(from);
    assertValidKey(to);
    if (from === to) {
      if (!(await this.head(from))) throw new StorageNotFoundError(from);
      return;
    }
    await mkdir(this.tmpDir, { recursive: true });
    const tmp = join(this.tmpDir, randomUUID());
    const tmpMeta = `${tmp}.json`;
    try {
      await this.linkData(from, tmp);
      const linked = await stat(tmp);
      if (!linked.isFile()) throw new StorageNotFoundError(from);
      const source = await this.readSidecar(from);
      // The source's sidecar describes these bytes only if the source is still this file and its size agrees
      // (a write in progress may have replaced the data and not yet its sidecar).
      const current = await stat(this.dataPath(from)).catch(() => undefined);
      const describesIt = source !== undefined && source.size === linked.size && current?.ino === linked.ino;
      const sidecar: Sidecar = {
        contentType: source?.contentType ?? DEFAULT_CONTENT_TYPE,
        size: linked.size,
        etag: describesIt ? source.etag : await md5Of(tmp),
        lastModified: new Date().toISOString(),
      };
      await writeFile(tmpMeta, JSON.stringify(sidecar), { flag: 'wx' });
      await this.moveInto(tmp, this.dataPath(to), to);
      await this.moveInto(tmpMeta, this.metaPath(to), to);
    } catch (err) {
      await rm(tmp, { force: true });
      await rm(tmpMeta, { force: true });
      throw err;
    }
  }

  private async linkData(from: string, tmp: string): Promise<void> {
    try {
      await link(this.dataPath(from), tmp);
    } catch (err) {
      if (isMissing(err)) throw new StorageNotFoundError(from);
      // A folder, not an object (Linux answers EPERM for a hard link to a directory).
      if (hasCode(err, 'EPERM') || hasCode(err, 'EISDIR')) {
        if ((await stat(this.dataPath(from))).isDirectory()) throw new StorageNotFoundError(from);
      }
      // The root spread over several file systems: no hard link across them, a real copy instead.
      if (hasCode(err, 'EXDEV')) return copyFile(this.dataPath(from), tmp);
      throw err;
    }
  }

  private async readSidecar(key: string): Promise<Sidecar | undefined> {
    try {
      return JSON.parse(await readFile(this.metaPath(key), 'utf8')) as Sidecar;
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw err;
    }
  }

  async get(key: string): Promise<Readable> {
    assertValidKey(key);
    try {
      const handle = await open(this.dataPath(key), 'r');
      if (!(await handle.stat()).isFile()) {
        await handle.close();
        throw new StorageNotFoundError(key);
      }
      return handle.createReadStream();
    } catch (err) {
      if (isMissing(err)) throw new StorageNotFoundError(key);
      throw err;
    }
  }

  async getBuffer(key: string): Promise<Buffer> {
    assertValidKey(key);
    try {
      return await readFile(this.dataPath(key));
    } catch (err) {
      if (isMissing(err) || hasCode(err, 'EISDIR')) throw new StorageNotFoundError(key);
      throw err;
    }
  }

  async head(key: string): Promise<ObjectInfo | null> {
    assertValidKey(key);
    let stats;
    try {
      stats = await stat(this.dataPath(key));
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
    if (!stats.isFile()) return null;
    try {
      return toInfo(key, JSON.parse(await readFile(this.metaPath(key), 'utf8')) as Sidecar);
    } catch (err) {
      // A crash between the two renames leaves data without its sidecar: answer with what the disk knows.
      if (!isMissing(err)) throw err;
      return { key, size: stats.size, contentType: DEFAULT_CONTENT_TYPE, lastModified: stats.mtime };
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await rm(this.dataPath(key), { force: true });
    await rm(this.metaPath(key), { force: true });
  }

  async list(prefix: string): Promise<string[]> {
    const folder = folderPrefix(prefix);
    const keys: string[] = [];
    await walkFiles(join(this.dataDir, ...folder.slice(0, -1).split('/')), folder, keys);
    return keys.sort();
  }

  async deletePrefix(prefix: string): Promise<number> {
    const folder = folderPrefix(prefix);
    const keys = await this.list(folder);
    for (const key of keys) await this.delete(key);
    // Objects written meanwhile keep their folders: only empty ones go.
    for (const base of [this.dataDir, this.metaDir]) await removeEmptyDirs(join(base, ...folder.slice(0, -1).split('/')));
    return keys.length;
  }

  async presignPut(key: string, opts: PresignOptions = {}): Promise<string> {
    return this.presign('PUT', key, opts);
  }

  async presignGet(key: string, opts: PresignOptions = {}): Promise<string> {
    return this.presign('GET', key, opts);
  }

  /** Checks a presigned URL used on `method` for `key`; the router calls this for every request. */
  verify(key: string, query: Record<string, unknown>, method: string): Verdict {
    return verifySignedQuery(this.opts.signingSecret, key, query, method);
  }

  async ensureReady(): Promise<void> {
    for (const dir of [this.dataDir, this.metaDir, this.tmpDir]) await mkdir(dir, { recursive: true });
  }

  async ping(): Promise<void> {
    await access(this.dataDir, fsConstants.R_OK | fsConstants.W_OK);
  }

  private presign(method: SignedMethod, key: string, opts: PresignOptions): string {
    assertValidKey(key);
    const expiresIn = opts.expiresIn ?? DEFAULT_EXPIRES_IN;
    if (!Number.isInteger(expiresIn) || expiresIn < 1) throw new RangeError('expiresIn must be a whole number of seconds, at least 1');
    // Rounded up, so a URL always lives at least expiresIn seconds.
    const expires = Math.ceil((Date.now() + expiresIn * 1000) / 1000);
    const contentType = method === 'PUT' ? opts.contentType : undefined;
    const query = new URLSearchParams({ [SIGNED_PARAMS.method]: method, [SIGNED_PARAMS.expires]: String(expires) });
    if (contentType) query.set(SIGNED_PARAMS.contentType, contentType);
    query.set(SIGNED_PARAMS.signature, sign(this.opts.signingSecret, { method, key, expires, contentType }));
    return `${this.publicUrl}/files/${encodeKeyPath(key)}?${query.toString()}`;
  }

  private dataPath(key: string): string {
    return join(this.dataDir, ...key.split('/'));
  }

  private metaPath(key: string): string {
    return `${join(this.metaDir, ...key.split('/'))}.json`;
  }

  private async moveInto(from: string, to: string, key: string): Promise<void> {
    try {
      await mkdir(dirname(to), { recursive: true });
      await rename(from, to);
    } catch (err) {
      // `a` stored as an object and `a/b` asked for (or the reverse): a file cannot also be a folder.
      if (['ENOTDIR', 'EISDIR', 'EEXIST', 'ENOTEMPTY'].some((code) => hasCode(err, code))) {
        throw new AppError(409, 'storage/key-conflict', `The key "${key}" clashes with an existing object's path.`, { cause: err });
      }
      throw err;
    }
  }
}

async function md5Of(path: string): Promise<string> {
  const hash = createHash('md5');
  const handle = await open(path, 'r');
  try {
    for await (const chunk of handle.createReadStream({ autoClose: false })) hash.update(chunk as Buffer);
  } finally {
    await handle.close();
  }
  return hash.digest('hex');
}

function toInfo(key: string, s: Sidecar): ObjectInfo {
  return { key, size: s.size, contentType: s.contentType, etag: s.etag, lastModified: new Date(s.lastModified) };
}

/** Adds the key of every file under `dir` (whose key prefix is `keyPrefix`) to `out`; a missing folder adds nothing. */
async function walkFiles(dir: string, keyPrefix: string, out: string[]): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (isMissing(err)) return;
    throw err;
  }
  for (const entry of entries) {
    if (entry.isDirectory()) await walkFiles(join(dir, entry.name), `${keyPrefix}${entry.name}/`, out);
    else if (entry.isFile()) out.push(`${keyPrefix}${entry.name}`);
  }
}

async function removeEmptyDirs(dir: string): Promise<void> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if (isMissing(err)) return;
    throw err;
  }
  for (const entry of entries) if (entry.isDirectory()) await removeEmptyDirs(join(dir, entry.name));
  try {
    await rmdir(dir);
  } catch (err) {
    if (!isMissing(err) && !hasCode(err, 'ENOTEMPTY') && !hasCode(err, 'EEXIST')) throw err;
  }
}

function hasCode(err: unknown, code: string): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === code;
}

function isMissing(err: unknown): boolean {
  return hasCode(err, 'ENOENT') || hasCode(err, 'ENOTDIR');
}
