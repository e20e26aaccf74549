import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { connect, type Channel, type ChannelModel } from 'amqplib';
import { buildEnvelope, createDb, createStorage, type ObjectStorage } from '@frametext/service-kit';
import { TEST_DATABASE_URL, TEST_RABBITMQ_URL, eventually, testBaseConfig, uniqueName } from '@frametext/service-kit/testing';
import { ocrRequestedRoutingKey, type EventData } from '@frametext/contracts';
import { configSchema, type Config } from '../src/config.js';

/** A private world for one test file: exchange, service name (its queues), schema, fs storage. */
export interface OcrWorld {
  config: Config;
  env: Record<string, string>;
  name: string;
  schema: string;
  storage: ObjectStorage;
  /** Every ocr.completed.v1 seen on the exchange, in arrival order. */
  completed: EventData<'ocr.completed.v1'>[];
  /** The same messages with their envelope ids (a re-sent outbox row keeps its id). */
  completedIds: string[];
  publishRequest(data: EventData<'ocr.requested.v1'>): Promise<void>;
  cleanup(): Promise<void>;
}

export function request(uploadId: string, frameIndex: number, objectKey: string, framesTotal = 1): EventData<'ocr.requested.v1'> {
  return { uploadId, frameIndex, framesTotal, timestampMs: frameIndex * 1000, objectKey, engine: 'server', mediaContent: 'captions', originalLanguage: 'en', targetLanguage: 'en' };
}

export async function ocrWorld(overrides: Record<string, string> = {}): Promise<OcrWorld> {
  const dataDir = await mkdtemp(join(tmpdir(), 'ocr-svc-'));
  const base = testBaseConfig({ DATA_DIR: dataDir });
  const env: Record<string, string> = { ...Object.fromEntries(Object.entries(base).map(([k, v]) => [k, String(v)])), PORT: '0', OCR_CONCURRENCY: '2', ...overrides };
  const config = configSchema.parse(env);
  const storage = createStorage(config);
  await storage.ensureReady();
  const name = uniqueName('ocr_test_svc');
  const schema = uniqueName('ocr_test');
  const conn: ChannelModel = await connect(TEST_RABBITMQ_URL);
  const ch: Channel = await conn.createConfirmChannel();
  await ch.assertExchange(config.BUS_EXCHANGE, 'topic', { durable: true, alternateExchange: `${config.BUS_EXCHANGE}.unrouted` });
  const observer = uniqueName('ocr_test_observer');
  await ch.assertQueue(observer, { durable: false, autoDelete: true });
  await ch.bindQueue(observer, config.BUS_EXCHANGE, 'ocr.completed.v1');
  const completed: EventData<'ocr.completed.v1'>[] = [];
  const completedIds: string[] = [];
  await ch.consume(observer, (msg) => {
    if (!msg) return;
    const envelope = JSON.parse(msg.content.toString('utf8'));
    completed.push(envelope.data);
    completedIds.push(envelope.id);
    ch.ack(msg);
  });
  return {
    config,
    env,
    name,
    schema,
    storage,
    completed,
    completedIds,
    async publishRequest(data) {
      const envelope = buildEnvelope('ocr.requested.v1', data);
      ch.publish(config.BUS_EXCHANGE, ocrRequestedRoutingKey('server'), Buffer.from(JSON.stringify(envelope)), { persistent: true, messageId: envelope.id, contentType: 'application/json', type: envelope.type });
      await (ch as unknown as { waitForConfirms(): Promise<void> }).waitForConfirms();
    },
    async cleanup() {
      await conn.close().catch(() => undefined);
      const admin = await eventually(() => connect(TEST_RABBITMQ_URL), 20_000, 500);
      try {
        const c = await admin.createChannel();
        for (const q of [name, `${name}.retry`, `${name}.dlq`, `${config.BUS_EXCHANGE}.unrouted`]) await c.deleteQueue(q);
        await c.deleteExchange(config.BUS_EXCHANGE);
        await c.deleteExchange(`${config.BUS_EXCHANGE}.unrouted`);
      } finally {
        await admin.close();
      }
      const db = createDb(TEST_DATABASE_URL, schema, { max: 1 });
      await db.raw('drop schema if exists ?? cascade', [schema]);
      await db.destroy();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export const newUploadId = () => randomUUID();
