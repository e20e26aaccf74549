import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import express from 'express';
import { connect } from 'amqplib';
import {
  createDb,
  createFsObjectRouter,
  createHttpApp,
  createStorage,
  finishHttpApp,
  listen,
  startService,
  type Knex,
  type ObjectStorage,
  type RunningServer,
} from '@frametext/service-kit';
import { TEST_DATABASE_URL, TEST_RABBITMQ_URL, eventually, testBaseConfig, testLogger, uniqueName } from '@frametext/service-kit/testing';
import { affordableFrames, creditCost, reserveCreditsRequestSchema, type ReserveCreditsRequest, type ReserveCreditsResponse } from '@frametext/contracts';
import { configSchema, type Config } from '../src/config.js';
import { RESERVE_PATH } from '../src/data/billing-client.js';
import type { UploadContext } from '../src/domain/context.js';
import { uploadService } from '../src/service.js';

// Tests read answer bodies field by field and let the assertions say what is wrong.
type Body = any;

export interface Answer {
  status: number;
  body: Body;
  headers: Headers;
}

/**
 * A stand-in for billing that honours its internal contract: balances per user (default 50), 402 with the
 * spec's sentence at 0, otherwise the frames the balance pays for; idempotent by uploadId.
 */
export class FakeBilling {
  readonly balances = new Map<string, number>();
  readonly calls: ReserveCreditsRequest[] = [];
  private readonly reservations = new Map<string, ReserveCreditsResponse>();
  /** When set, every reservation answers this status with a body that is not the contract's. */
  failWith: number | undefined;
  private server: RunningServer | undefined;

  get url(): string {
    return `http://127.0.0.1:${this.server!.port}`;
  }

  async start(): Promise<void> {
    const app = express();
    app.use(express.json());
    app.post(RESERVE_PATH, (req, res) => {
      const parsed = reserveCreditsRequestSchema.safeParse(req.body);
      if (!parsed.success) return void res.status(400).json({ error: { code: 'request/invalid-body', message: parsed.error.message } });
      const r = parsed.data;
      this.calls.push(r);
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
      res.json(answer);
    });
    this.server = await listen(app, 0, '127.0.0.1');
  }

  async stop(): Promise<void> {
    await this.server?.close();
  }
}

export interface TestUpload {
  url: string;
  config: Config;
  schema: string;
  db: Knex;
  billing: FakeBilling;
  /** The store as the service sees it (the fs driver in a temp folder). */
  storage: ObjectStorage;
  ctx: UploadContext;
  post(path: string, body: unknown, opts?: { user?: string | null; raw?: string; contentType?: string }): Promise<Answer>;
  /** PUTs bytes to a presigned URL, as the browser does. */
  put(url: string, bytes: Buffer, contentType: string): Promise<Answer>;
  /** Events the service wrote to its outbox, oldest first. */
  outbox(): Promise<{ type: string; data: Body }[]>;
  stop(): Promise<void>;
}

/**
 * The upload service in-process on the real Postgres and RabbitMQ (a schema and an exchange of its own), the fs
 * store in a temp folder served by the /files router as the gateway serves it, and a fake billing.
 */
export async function startUpload(env: Record<string, string> = {}): Promise<TestUpload> {
  const schema = uniqueName('upload_test');
  const dataDir = await mkdtemp(join(tmpdir(), 'upload-test-'));
  const billing = new FakeBilling();
  await billing.start();

  const logger = testLogger('files');
  const files = createHttpApp({ name: 'files', logger, parseJson: false });
  const fileServer = await listen(files.app, 0, '127.0.0.1');
  const base = testBaseConfig({ DATA_DIR: dataDir, STORAGE_DRIVER: 'fs', STORAGE_PUBLIC_URL: `http://127.0.0.1:${fileServer.port}` });
  const config = configSchema.parse({
    ...Object.fromEntries(Object.entries(base).map(([k, v]) => [k, String(v)])),
    PORT: '0',
    BILLING_URL: billing.url,
    BILLING_TIMEOUT_MS: '2000',
    ...env,
  });
  const storage = createStorage(config);
  files.app.use('/files', createFsObjectRouter(storage));
  finishHttpApp(files.app, logger);

  let ctx: UploadContext | undefined;
  const running = await startService(uploadService(config, { dbSchema: schema, logger: testLogger('upload'), onContext: (c) => (ctx = c) }));
  const url = `http://127.0.0.1:${running.port}`;
  const db = createDb(TEST_DATABASE_URL, schema, { max: 2 });
  const defaultUser = uniqueName('user');

  return {
    url,
    config,
    schema,
    db,
    billing,
    storage,
    ctx: ctx!,
    async post(path, body, opts = {}) {
      const headers: Record<string, string> = {};
      const user = opts.user === undefined ? defaultUser : opts.user;
      if (user) headers['x-user-id'] = user;
      const payload = opts.raw ?? (body === undefined ? undefined : JSON.stringify(body));
      if (payload !== undefined) headers['content-type'] = opts.contentType ?? 'application/json';
      const res = await fetch(`${url}${path}`, { method: 'POST', headers, body: payload });
      return answer(res);
    },
    async put(target, bytes, contentType) {
      return answer(await fetch(target, { method: 'PUT', headers: { 'content-type': contentType }, body: bytes }));
    },
    async outbox() {
      const rows = await db('outbox').select('type', 'envelope').orderBy('created_at');
      return rows.map((r: { type: string; envelope: { data: Body } }) => ({ type: r.type, data: r.envelope.data }));
    },
    async stop() {
      await running.stop();
      await fileServer.close();
      await billing.stop();
      await db.raw('drop schema if exists ?? cascade', [schema]);
      await db.destroy();
      await deleteExchange(config.BUS_EXCHANGE);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

async function answer(res: Response): Promise<Answer> {
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, body: parsed as Body, headers: res.headers };
}

/** Deletes the test's exchange (and the unrouted queue the bus declares beside it). */
async function deleteExchange(exchange: string): Promise<void> {
  const conn = await eventually(() => connect(TEST_RABBITMQ_URL), 20_000, 500);
  try {
    const ch = await conn.createChannel();
    await ch.deleteExchange(exchange);
    await ch.deleteQueue(`${exchange}.unrouted`);
    await ch.deleteExchange(`${exchange}.unrouted`);
  } finally {
    await conn.close();
  }
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
