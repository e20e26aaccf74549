import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, type ChannelModel } from 'amqplib';
import type { Envelope, EventData } from '@frametext/contracts';
import { buildEnvelope, createStorage, startService, type ObjectStorage, type RunningService } from '@frametext/service-kit';
import { TEST_DATABASE_URL, TEST_RABBITMQ_URL, eventually, testBaseConfig, testLogger, uniqueName } from '@frametext/service-kit/testing';
import { createDb } from '@frametext/service-kit';
import { configSchema, type Config } from '../src/config.js';
import { frameExtractionService } from '../src/service.js';

export interface Published {
  routingKey: string;
  envelope: Envelope;
}

export type UploadEvent = EventData<'upload.completed.v1'>;

export interface Outcome {
  extracted?: EventData<'frames.extracted.v1'>;
  failed?: EventData<'upload.failed.v1'>;
  ocr: { routingKey: string; data: EventData<'ocr.requested.v1'> }[];
  /** Event types in the order the broker delivered them. */
  order: string[];
}

export interface Harness {
  config: Config;
  storage: ObjectStorage;
  workDir: string;
  /** Stores a file as an upload object. */
  putFile(key: string, path: string): Promise<void>;
  /** Publishes upload.completed.v1 (defaults: a server-engine numerical video) and answers its uploadId. */
  publishUpload(data: Partial<UploadEvent> & Pick<UploadEvent, 'kind' | 'objectKeys'>, opts?: { times?: number }): Promise<string>;
  /** Waits until the upload's outcome (and, on success, every OCR request) has been published. */
  outcome(uploadId: string, timeoutMs?: number): Promise<Outcome>;
  stop(): Promise<void>;
}

/** The service in-process on the real Postgres and RabbitMQ, with a queue that sees everything it publishes. */
export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const schema = uniqueName('frame_extraction_test');
  const name = uniqueName('frame_extraction_test_svc');
  const workDir = await mkdtemp(join(tmpdir(), 'fx-test-'));
  const base = testBaseConfig({ DATA_DIR: workDir, STORAGE_FS_ROOT: join(workDir, 'objects') });
  const config = configSchema.parse({ ...Object.fromEntries(Object.entries(base).map(([k, v]) => [k, String(v)])), PORT: '0', ...env });
  const running: RunningService<Config> = await startService(frameExtractionService(config, { name, dbSchema: schema, logger: testLogger('frame-extraction') }));
  const storage = createStorage(config);

  const conn: ChannelModel = await connect(TEST_RABBITMQ_URL);
  const ch = await conn.createConfirmChannel();
  const { queue } = await ch.assertQueue('', { exclusive: true, autoDelete: true });
  await ch.bindQueue(queue, config.BUS_EXCHANGE, '#');
  const seen: Published[] = [];
  await ch.consume(queue, (msg) => {
    if (!msg) return;
    seen.push({ routingKey: msg.fields.routingKey, envelope: JSON.parse(msg.content.toString()) as Envelope });
    ch.ack(msg);
  });

  const forUpload = (uploadId: string) => seen.filter((p) => (p.envelope.data as { uploadId?: string }).uploadId === uploadId && p.envelope.type !== 'upload.completed.v1');

  return {
    config,
    storage,
    workDir,
    async putFile(key, path) {
      await storage.put(key, await readFile(path));
    },
    async publishUpload(partial, opts = {}) {
      const uploadId = partial.uploadId ?? randomUUID();
      const data: UploadEvent = {
        uploadId,
        userId: 'user-1',
        uploadName: 'test upload',
        mimeType: 'video/mp4',
        fileNames: null,
        timestamps: null,
        engine: 'server',
        mediaContent: 'numerical',
        intervalSeconds: null,
        slideDetection: false,
        sortPreference: null,
        maxFrames: 360,
        creditCost: 1,
        originalLanguage: null,
        targetLanguage: null,
        durationSeconds: null,
        createdAt: new Date().toISOString(),
        ...partial,
      };
      const envelope = buildEnvelope('upload.completed.v1', data);
      // The same message more than once is what a redelivery looks like.
      for (let i = 0; i < (opts.times ?? 1); i++) {
        ch.publish(config.BUS_EXCHANGE, envelope.type, Buffer.from(JSON.stringify(envelope)), { persistent: true, contentType: 'application/json', messageId: envelope.id });
        await ch.waitForConfirms();
      }
      return uploadId;
    },
    async outcome(uploadId, timeoutMs = 60_000) {
      return eventually(() => {
        const mine = forUpload(uploadId);
        const out: Outcome = { ocr: [], order: mine.map((p) => p.envelope.type) };
        for (const p of mine) {
          if (p.envelope.type === 'frames.extracted.v1') out.extracted = p.envelope.data as Outcome['extracted'];
          if (p.envelope.type === 'upload.failed.v1') out.failed = p.envelope.data as Outcome['failed'];
          if (p.envelope.type === 'ocr.requested.v1') out.ocr.push({ routingKey: p.routingKey, data: p.envelope.data as EventData<'ocr.requested.v1'> });
        }
        if (out.failed) return out;
        if (out.extracted && out.ocr.length === out.extracted.framesTotal) return out;
        return undefined;
      }, timeoutMs, 100);
    },
    async stop() {
      await running.stop();
      await ch.close().catch(() => undefined);
      const admin = await conn.createChannel();
      for (const q of [name, `${name}.retry`, `${name}.dlq`, `${config.BUS_EXCHANGE}.unrouted`]) await admin.deleteQueue(q).catch(() => undefined);
      await admin.deleteExchange(config.BUS_EXCHANGE).catch(() => undefined);
      await admin.deleteExchange(`${config.BUS_EXCHANGE}.unrouted`).catch(() => undefined);
      await conn.close().catch(() => undefined);
      const db = createDb(TEST_DATABASE_URL, schema, { max: 1 });
      await db.raw('drop schema if exists ?? cascade', [schema]);
      await db.destroy();
      await rm(workDir, { recursive: true, force: true });
    },
  };
}

/** Tesseract's reading of an image (the CLI, with stdin): to check a frame shows what it should. */
export async function ocrText(image: Buffer): Promise<string> {
  const { spawn } = await import('node:child_process');
  return new Promise((resolve, reject) => {
    const child = spawn('tesseract', ['stdin', 'stdout'], { stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += c.toString()));
    child.on('error', reject);
    child.on('close', () => resolve(out));
    child.stdin.end(image);
  });
}
