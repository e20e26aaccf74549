import { Router, type Request, type Response } from 'express';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError, forbidden, notFound } from '../errors/index.js';
import { watchBody } from '../http/body-timeouts.js';
import { FsObjectStorage } from './fs.js';
import { assertValidKey, decodeKeyPath } from './keys.js';
import type { Verdict } from './signing.js';
import { StorageNotFoundError, type ObjectInfo, type ObjectStorage } from './types.js';

export const DEFAULT_MAX_UPLOAD_BYTES = 2 * 1024 ** 3;

export const DEFAULT_BODY_IDLE_TIMEOUT_MS = 60_000;

export interface FsObjectRouterOptions {
  /** Largest body a presigned PUT may store (default 2 GiB). */
  maxUploadBytes?: number;
  /**
   * A PUT whose client sends nothing for this long is cut with a 408 and stores nothing (default 60 s). Uploads may
   * be large and slow, so there is no limit on their total time, only on silence.
   */
  bodyIdleTimeoutMs?: number;
}

const REFUSALS: Record<Exclude<Verdict, { ok: true }>['reason'], () => AppError> = {
  'signature-invalid': () => forbidden('storage/signature-invalid', 'This file link is not valid. Ask for a new one.'),
  'url-expired': () => forbidden('storage/url-expired', 'This file link has expired. Ask for a new one.'),
  'method-not-allowed': () => forbidden('storage/method-not-allowed', 'This file link does not allow this kind of request.'),
};

/**
 * Serves the fs driver's presigned URLs; the gateway mounts it at `/files`. GET and HEAD read an object, PUT
 * stores the body. Mount it on an app whose JSON parser is off (`createHttpApp({ parseJson: false })`, as the
 * gateway's is), because the body must reach this router unread.
 */
export function createFsObjectRouter(storage: ObjectStorage, opts: FsObjectRouterOptions = {}): Router {
  if (!(storage instanceof FsObjectStorage)) throw new Error(`the /files router serves the fs driver only (got ${storage.driver})`);
  const maxBytes = opts.maxUploadBytes ?? DEFAULT_MAX_UPLOAD_BYTES;
  const idleMs = opts.bodyIdleTimeoutMs ?? DEFAULT_BODY_IDLE_TIMEOUT_MS;
  const router = Router();
  router.use(async (req: Request, res: Response) => {
    const key = decodeKeyPath(req.path.slice(1)) ?? '';
    assertValidKey(key);
    const verdict = storage.verify(key, req.query, req.method);
    if (!verdict.ok) throw REFUSALS[verdict.reason]();
    if (req.method === 'PUT') await putObject(storage, key, verdict.request.contentType, { maxBytes, idleMs }, req, res);
    else await sendObject(storage, key, verdict.request.expires, req, res);
  });
  return router;
}

async function sendObject(storage: FsObjectStorage, key: string, expires: number, req: Request, res: Response): Promise<void> {
  const info = await storage.head(key);
  if (!info) throw missing(key);
  const stream = req.method === 'HEAD' ? undefined : await storage.get(key).catch(rethrowMissing(key));
  const maxAge = Math.max(0, expires - Math.floor(Date.now() / 1000));
  res.status(200).set({
    'Content-Type': info.contentType,
    'Content-Length': String(info.size),
    'Last-Modified': info.lastModified.toUTCString(),
    'Cache-Control': `private, max-age=${maxAge}`,
    // Uploaded bytes are served from the app's own origin: never let a browser run them as a page.
    'X-Content-Type-Options': 'nosniff',
    'Content-Security-Policy': "default-src 'none'; sandbox",
    ...(info.etag ? { ETag: quoted(info.etag) } : {}),
  });
  if (!stream) {
    res.end();
    return;
  }
  try {
    await pipeline(stream, res);
  } catch (err) {
    // The client went away mid-download: nothing to answer, nothing to log as a failure.
    if (!res.destroyed) throw err;
  }
}

async function putObject(
  storage: FsObjectStorage,
  key: string,
  signedContentType: string | undefined,
  limits: { maxBytes: number; idleMs: number },
  req: Request,
  res: Response,
): Promise<void> {
  const { maxBytes } = limits;
  if (req.body !== undefined) throw new Error('the /files router needs the raw request body; mount it on an app created with parseJson: false');
  const sentType = req.header('content-type');
  if (signedContentType !== undefined && !sameMediaType(signedContentType, sentType)) {
    throw forbidden('storage/content-type-mismatch', `This link only accepts Content-Type ${signedContentType}.`);
  }
  const declared = Number(req.header('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) throw tooLarge(res, maxBytes);
  // The body is read through a PassThrough so that refusing it mid-way does not destroy the request's socket
  // before the 413 is written.
  const body = new PassThrough();
  req.pipe(body);
  // A stalled client: the write fails with the 408, which removes its temporary file.
  const stopClock = watchBody(req, { idleMs: limits.idleMs }, (err) => body.destroy(err));
  let info: ObjectInfo;
  try {
    info = await storage.write(key, body, { contentType: signedContentType ?? sentType, maxBytes });
  } catch (err) {
    req.unpipe(body);
    if (err instanceof AppError && err.status === 413) throw tooLarge(res, maxBytes);
    if (err instanceof AppError && err.status === 408) res.setHeader('Connection', 'close');
    throw err;
  } finally {
    stopClock();
  }
  res.status(200).set('ETag', quoted(info.etag ?? '')).end();
}

function tooLarge(res: Response, maxBytes: number): AppError {
  // Stop the client's upload: the rest of the body is not worth reading.
  res.setHeader('Connection', 'close');
  return new AppError(413, 'storage/too-large', `The file is larger than the limit of ${maxBytes} bytes.`);
}

function sameMediaType(signed: string, sent: string | undefined): boolean {
  return sent !== undefined && signed.trim().toLowerCase() === sent.trim().toLowerCase();
}

function quoted(etag: string): string {
  return `"${etag}"`;
}

function missing(key: string): AppError {
  return notFound('storage/not-found', `No file is stored at ${key}.`);
}

function rethrowMissing(key: string) {
  return (err: unknown): never => {
    throw err instanceof StorageNotFoundError ? missing(key) : err;
  };
}
