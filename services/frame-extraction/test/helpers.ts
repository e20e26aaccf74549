import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { EventData } from '@frametext/contracts';
import type { Knex, ObjectStorage } from '@frametext/service-kit';
import { eventually, sampleOf, startTestService } from '@frametext/service-kit/testing';
import { configSchema, type Config } from '../src/config.js';
import { frameExtractionService } from '../src/service.js';

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
  /** Publishes upload.deleted.v1 for the upload (results deleted it) and waits until the service has handled it. */
  deleteUpload(uploadId: string): Promise<void>;
  /** Waits until the service has handled every upload.completed.v1 published for the upload: its extraction has ended. */
  extractionEnded(uploadId: string, timeoutMs?: number): Promise<void>;
  /** Deliveries the service took as redeliveries of a message it had handled, so far (frametext_bus_messages_total). */
  duplicates(): Promise<number>;
  /** The service's schema. */
  db: Knex;
  stop(): Promise<void>;
}

/** The service in-process on the real Postgres and RabbitMQ, watching everything it publishes. */
export async function startHarness(env: Record<string, string> = {}): Promise<Harness> {
  const service = await startTestService({
    role: 'frame-extraction',
    configSchema,
    env,
    watch: ['#'],
    define: (config, t) => frameExtractionService(config, { name: t.name, dbSchema: t.schema, logger: t.logger }),
  });
  const forUpload = (uploadId: string) =>
    service.watched.seen.filter((p) => (p.envelope.data as { uploadId?: string }).uploadId === uploadId && p.envelope.type !== 'upload.completed.v1' && p.envelope.type !== 'upload.deleted.v1');
  const published = new Map<string, string[]>();

  return {
    config: service.config,
    storage: service.storage,
    workDir: service.dataDir,
    db: service.db,
    async putFile(key, path) {
      await service.storage.put(key, await readFile(path));
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
      // The same message more than once is what a redelivery looks like.
      const envelope = await service.publish('upload.completed.v1', data, { times: opts.times });
      published.set(uploadId, [...(published.get(uploadId) ?? []), envelope.id]);
      return uploadId;
    },
    async deleteUpload(uploadId) {
      await service.deliver('upload.deleted.v1', { uploadId, userId: 'user-1', framesRead: 0 });
    },
    async extractionEnded(uploadId, timeoutMs = 60_000) {
      for (const id of published.get(uploadId) ?? []) await service.waitHandled(id, timeoutMs);
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
    async duplicates() {
      const text = await (await fetch(`http://127.0.0.1:${service.running.metricsPort}/metrics`)).text();
      return sampleOf(text, 'frametext_bus_messages_total', { queue: service.names.name, outcome: 'duplicate' }) || 0;
    },
    stop: () => service.stop(),
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
