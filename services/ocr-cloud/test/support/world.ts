import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { connect } from 'amqplib';
import type { ObjectStorage } from '@frametext/service-kit';
import { TEST_RABBITMQ_URL, startTestWorld } from '@frametext/service-kit/testing';
import { ocrRequestedRoutingKey, type EventData } from '@frametext/contracts';
import { configSchema, type Config } from '../../src/config.js';
import { FakeGoogle } from './fake-google.js';

/** A private world for one test file: exchange, service name (its queues), schema, fs storage, a fake Google. */
export interface CloudWorld {
  config: Config;
  name: string;
  schema: string;
  storage: ObjectStorage;
  google: FakeGoogle;
  /** Every ocr.completed.v1 and upload.failed.v1 seen on the exchange, in arrival order. */
  readonly completed: EventData<'ocr.completed.v1'>[];
  readonly failed: EventData<'upload.failed.v1'>[];
  /** Publishes a frame request; answers its message id. */
  publishRequest(data: EventData<'ocr.requested.v1'>): Promise<string>;
  /** Publishes upload.deleted.v1 (results deleted the upload); answers its message id. */
  publishDeleted(uploadId: string): Promise<string>;
  /** Messages waiting in the worker's queue (frames nobody has taken). */
  waiting(): Promise<number>;
  /** Consumers on the worker's queue. */
  consumers(): Promise<number>;
  cleanup(): Promise<void>;
}

export function cloudRequest(uploadId: string, frameIndex: number, objectKey: string, extra: Partial<EventData<'ocr.requested.v1'>> = {}): EventData<'ocr.requested.v1'> {
  return {
    uploadId,
    userId: 'user-1',
    frameIndex,
    framesTotal: frameIndex + 1,
    timestampMs: frameIndex * 1000,
    objectKey,
    engine: 'cloud',
    mediaContent: 'numerical',
    originalLanguage: null,
    targetLanguage: null,
    ...extra,
  };
}

/** A small real JPEG; `seed` makes its bytes (and so the fake's answer) its own. */
export async function jpegFrame(seed: number, width = 1280, height = 720): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: seed % 256, g: (seed * 7) % 256, b: (seed * 13) % 256 } } })
    .jpeg({ quality: 80 })
    .toBuffer();
}

export async function cloudWorld(overrides: Record<string, string> = {}): Promise<CloudWorld> {
  const google = await new FakeGoogle().start();
  const world = await startTestWorld({
    role: 'ocr-cloud',
    configSchema,
    env: { VISION_API_URL: google.url, TRANSLATE_API_URL: google.url, CLOUD_RETRY_BASE_MS: '10', ...overrides },
    watch: ['ocr.completed.v1', 'upload.failed.v1'],
  });
  const { config, names } = world;
  const conn = await connect(TEST_RABBITMQ_URL);
  const setup = await conn.createChannel();
  // The worker's queue exists before the worker (as it does once a worker has ever run), so frames published
  // while no worker consumes wait in it.
  await setup.assertQueue(names.name, { durable: true });
  await setup.bindQueue(names.name, config.BUS_EXCHANGE, ocrRequestedRoutingKey('cloud'));
  await setup.close();
  const look = async () => {
    const probe = await conn.createChannel();
    try {
      return await probe.checkQueue(names.name);
    } finally {
      await probe.close();
    }
  };
  return {
    config,
    name: names.name,
    schema: names.schema,
    storage: world.storage,
    google,
    get completed() {
      return world.watched.dataOf('ocr.completed.v1');
    },
    get failed() {
      return world.watched.dataOf('upload.failed.v1');
    },
    async publishRequest(data) {
      return (await world.publisher.publish('ocr.requested.v1', data, { routingKey: ocrRequestedRoutingKey('cloud') })).id;
    },
    async publishDeleted(uploadId) {
      return (await world.publisher.publish('upload.deleted.v1', { uploadId, userId: 'someone', framesRead: 0 })).id;
    },
    waiting: async () => (await look()).messageCount,
    consumers: async () => (await look()).consumerCount,
    async cleanup() {
      await conn.close().catch(() => undefined);
      await google.stop();
      await world.cleanup();
    },
  };
}

export const newUploadId = () => randomUUID();
