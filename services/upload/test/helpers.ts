import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import express from 'express';
import { createFsObjectRouter, createHttpApp, createStorage, finishHttpApp, listen, type RunningServer } from '@frametext/service-kit';
import { startTestService, testLogger, toAnswer, uniqueName, type Answer, type ServiceUnderTest } from '@frametext/service-kit/testing';
import {
  affordableFrames,
  chargeLocalUseRequestSchema,
  creditCost,
  reserveCreditsRequestSchema,
  type ChargeLocalUseRequest,
  type ChargeLocalUseResponse,
  type ReserveCreditsRequest,
  type ReserveCreditsResponse,
} from '@frametext/contracts';
import { configSchema, type Config } from '../src/config.js';
import { LOCAL_USE_PATH, RESERVE_PATH } from '../src/data/billing-client.js';
import type { UploadContext } from '../src/domain/context.js';
import { uploadService } from '../src/service.js';

export type { Answer };

/**
 * A stand-in for billing that honours its internal contract: balances per user (default 50), 402 with the
 * spec's sentence at 0, otherwise the frames the balance pays for; idempotent by uploadId. It records the
 * credentials each call carried (the user's token and the upload service's workload token).
 */
export class FakeBilling {
  readonly balances = new Map<string, number>();
  readonly calls: ReserveCreditsRequest[] = [];
  readonly credentials: { authorization?: string; workload?: string }[] = [];
  private readonly reservations = new Map<string, ReserveCreditsResponse>();
  /** Local engine runs charged, by user and upload id. */
  readonly localCharges = new Map<string, ChargeLocalUseResponse>();
  readonly localCalls: ChargeLocalUseRequest[] = [];
  /** When set, every reservation answers this status with a body that is not the contract's. */
  failWith: number | undefined;
  /** When set, reservations wait for it before they are made and answered (a slow billing). */
  gate: Promise<void> | undefined;
  private server: RunningServer | undefined;

  get url(): string {
    return `http://127.0.0.1:${this.server!.port}`;
  }

  async start(): Promise<void> {
    const app = express();
    app.use(express.json());
    app.post(RESERVE_PATH, async (req, res) => {
      const parsed = reserveCreditsRequestSchema.safeParse(req.body);
      if (!parsed.success) return void res.status(400).json({ error: { code: 'request/invalid-body', message: parsed.error.message } });
      const r = parsed.data;
      this.calls.push(r);
      this.credentials.push({ authorization: req.header('authorization'), workload: req.header('x-workload-token') });
      await this.gate;
      if (this.failWith) return void res.status(this.failWith).send('billing is having a bad day');
      const done = this.reservations.get(r.uploadId);
      if (done) return void res.json(done);
      const balance = this.balances.get(r.userId) ?? 50;
      if (balance <= 0) {
        return void res.status(402).json({ error: { code: 'billing/insufficient-credits', message: 'Not enough credits, purchase some more before uploading.', details: { credits: 0 } } });
      }
      const maxFrames = Math.min(r.frames, affordableFrames(balance, r.engine));
      const answer: ReserveCreditsResponse = {
        uploadId: r.uploadId,
        framesRequested: r.frames,
        maxFrames,
        creditCost: creditCost(maxFrames, r.engine),
        credits: balance,
        creditsRequired: creditCost(r.frames, r.engine),
      };
      this.balances.set(r.userId, balance - answer.creditCost);
      this.reservations.set(r.uploadId, answer);
      if (!res.writableEnded && !req.socket.destroyed) res.json(answer);
    });
    app.post(LOCAL_USE_PATH, (req, res) => {
      const parsed = chargeLocalUseRequestSchema.safeParse(req.body);
      if (!parsed.success) return void res.status(400).json({ error: { code: 'request/invalid-body', message: parsed.error.message } });
      const r = parsed.data;
      this.localCalls.push(r);
      this.credentials.push({ authorization: req.header('authorization'), workload: req.header('x-workload-token') });
      if (this.failWith) return void res.status(this.failWith).send('billing is having a bad day');
      const key = `${r.userId}/${r.uploadId}`;
      const balance = this.balances.get(r.userId) ?? 50;
      const done = this.localCharges.get(key);
      if (done) return void res.json({ ...done, credits: balance, charged: false });
      const cost = creditCost(r.frames, 'local');
      if (balance < cost) {
        return void res.status(402).json({ error: { code: 'billing/insufficient-credits', message: `You have ${balance} credits but this operation requires ${cost}.`, details: { credits: balance, creditsRequired: cost } } });
      }
      const answer: ChargeLocalUseResponse = { uploadId: r.uploadId, creditCost: cost, credits: balance - cost, charged: true };
      this.balances.set(r.userId, balance - cost);
      this.localCharges.set(key, answer);
      res.json(answer);
    });
    this.server = await listen(app, 0, '127.0.0.1');
  }

  /** Whether credits are held for the upload. */
  holds(uploadId: string): boolean {
    return this.reservations.has(uploadId);
  }

  async stop(): Promise<void> {
    await this.server?.close();
  }
}

export interface TestUpload {
  service: ServiceUnderTest<Config>;
  url: string;
  config: Config;
  db: ServiceUnderTest<Config>['db'];
  billing: FakeBilling;
  /** The store as the service sees it (the fs driver in a temp folder). */
  storage: ServiceUnderTest<Config>['storage'];
  ctx: UploadContext;
  /** POSTs as `user` (their access token; a new user of this test file by default, none with null). */
  post(path: string, body: unknown, opts?: { user?: string | null; raw?: string; contentType?: string }): Promise<Answer>;
  /** PUTs bytes to a presigned URL, as the browser does. */
  put(url: string, bytes: Buffer, contentType: string): Promise<Answer>;
  /** Events the service wrote to its outbox, oldest first. */
  outbox(): Promise<{ type: string; data: Answer['body'] }[]>;
  /** Events seen on the exchange since start, by the routing-key patterns given at start. */
  published(): { type: string; data: Answer['body'] }[];
  stop(): Promise<void>;
}

/**
 * The upload service in-process on the real Postgres and RabbitMQ, the fs store in a temp folder served by the
 * /files router as the gateway serves it, and a fake billing.
 */
export async function startUpload(env: Record<string, string> = {}, watch: string[] = []): Promise<TestUpload> {
  const billing = new FakeBilling();
  await billing.start();
  const logger = testLogger('files');
  const files = createHttpApp({ name: 'files', logger, parseJson: false });
  const fileServer = await listen(files.app, 0, '127.0.0.1');

  let ctx: UploadContext | undefined;
  const service = await startTestService({
    role: 'upload',
    configSchema,
    // The tests run the sweeps themselves, at the moments they choose.
    env: {
      STORAGE_PUBLIC_URL: `http://127.0.0.1:${fileServer.port}`,
      BILLING_URL: billing.url,
      BILLING_TIMEOUT_MS: '2000',
      ABANDONED_SWEEP_INTERVAL_MS: '3600000',
      UNFINISHED_START_SWEEP_INTERVAL_MS: '3600000',
      ...env,
    },
    watch,
    define: (config, t) => uploadService(config, { name: t.name, dbSchema: t.schema, logger: t.logger, onContext: (c) => (ctx = c) }),
  });
  files.app.use('/files', createFsObjectRouter(createStorage(service.config)));
  finishHttpApp(files.app, logger);
  const defaultUser = uniqueName('user');

  return {
    service,
    url: service.url,
    config: service.config,
    db: service.db,
    billing,
    storage: service.storage,
    ctx: ctx!,
    post(path, body, opts = {}) {
      const user = opts.user === undefined ? defaultUser : (opts.user ?? undefined);
      return service.request('POST', path, opts.raw === undefined ? { body, user } : { raw: opts.raw, contentType: opts.contentType, user });
    },
    async put(target, bytes, contentType) {
      return toAnswer(await fetch(target, { method: 'PUT', headers: { 'content-type': contentType }, body: bytes }));
    },
    outbox: () => service.outbox(),
    published: () => service.watched.seen.map((s) => ({ type: s.envelope.type, data: s.envelope.data })),
    async stop() {
      await service.stop();
      await fileServer.close();
      await billing.stop();
    },
  };
}

const run = promisify(execFile);

/** Small real media made with ffmpeg: an MP4, a MOV, a PNG and a JPEG. */
export interface Media {
  mp4: Buffer;
  mov: Buffer;
  png: Buffer;
  jpeg: Buffer;
  cleanup(): Promise<void>;
}

export async function makeMedia(): Promise<Media> {
  const dir = await mkdtemp(join(tmpdir(), 'upload-media-'));
  const source = ['-f', 'lavfi', '-i', 'testsrc=duration=2:size=320x240:rate=10'];
  await run('ffmpeg', ['-v', 'error', '-y', ...source, '-pix_fmt', 'yuv420p', join(dir, 'clip.mp4')]);
  await run('ffmpeg', ['-v', 'error', '-y', ...source, '-pix_fmt', 'yuv420p', join(dir, 'clip.mov')]);
  await run('ffmpeg', ['-v', 'error', '-y', ...source, '-frames:v', '1', join(dir, 'frame.png')]);
  await run('ffmpeg', ['-v', 'error', '-y', ...source, '-frames:v', '1', join(dir, 'frame.jpg')]);
  return {
    mp4: await readFile(join(dir, 'clip.mp4')),
    mov: await readFile(join(dir, 'clip.mov')),
    png: await readFile(join(dir, 'frame.png')),
    jpeg: await readFile(join(dir, 'frame.jpg')),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

/** A source-video request as the SPA sends it (Basic engine, one frame every 15 s). */
export function videoRequest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    isVideo: true,
    mimeType: 'video/mp4',
    fileName: 'charger.mp4',
    uploadName: 'Charger session',
    duration: 60,
    targetFrameRate: 1 / 15,
    ocrType: 'server',
    mediaContent: 'numerical',
    ...overrides,
  };
}

export function photosRequest(files: { name: string; type: string }[], overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    isVideo: false,
    mimeType: files[0]?.type ?? 'image/png',
    uploadName: 'Receipts',
    ocrType: 'server',
    files: files.map((f, i) => ({ ...f, lastModified: 1_700_000_000_000 + i * 1000 })),
    ...overrides,
  };
}
