import { randomUUID } from 'node:crypto';
import type { ObjectStorage } from '@frametext/service-kit';
import { startTestWorld } from '@frametext/service-kit/testing';
import { ocrRequestedRoutingKey, type EventData } from '@frametext/contracts';
import { configSchema, type Config } from '../src/config.js';

/**
 * A private world for one test file (exchange, queue name, schema, fs storage), in which the tests start OCR
 * workers themselves: in-process, or as child processes they can kill.
 */
export interface OcrWorld {
  config: Config;
  env: Record<string, string>;
  name: string;
  schema: string;
  storage: ObjectStorage;
  /** Every ocr.completed.v1 seen on the exchange, in arrival order. */
  readonly completed: EventData<'ocr.completed.v1'>[];
  /** The same messages with their envelope ids (a re-sent outbox row keeps its id). */
  readonly completedIds: string[];
  publishRequest(data: EventData<'ocr.requested.v1'>): Promise<void>;
  /** Publishes an event as another service would; answers its message id. */
  publish<T extends 'ocr.requested.v1' | 'upload.deleted.v1'>(type: T, data: EventData<T>): Promise<string>;
  cleanup(): Promise<void>;
}

export function request(uploadId: string, frameIndex: number, objectKey: string, framesTotal = 1): EventData<'ocr.requested.v1'> {
  return { uploadId, frameIndex, framesTotal, timestampMs: frameIndex * 1000, objectKey, engine: 'server', mediaContent: 'captions', originalLanguage: 'en', targetLanguage: 'en' };
}

export async function ocrWorld(overrides: Record<string, string> = {}): Promise<OcrWorld> {
  const world = await startTestWorld({ role: 'ocr-tesseract', configSchema, env: { OCR_CONCURRENCY: '2', ...overrides }, watch: ['ocr.completed.v1'] });
  return {
    config: world.config,
    env: world.env,
    name: world.names.name,
    schema: world.names.schema,
    storage: world.storage,
    get completed() {
      return world.watched.dataOf('ocr.completed.v1');
    },
    get completedIds() {
      return world.watched.seen.filter((s) => s.envelope.type === 'ocr.completed.v1').map((s) => s.envelope.id);
    },
    async publishRequest(data) {
      await world.publisher.publish('ocr.requested.v1', data, { routingKey: ocrRequestedRoutingKey('server') });
    },
    async publish(type, data) {
      const routingKey = type === 'ocr.requested.v1' ? ocrRequestedRoutingKey('server') : type;
      return (await world.publisher.publish(type, data, { routingKey })).id;
    },
    cleanup: () => world.cleanup(),
  };
}

export const newUploadId = () => randomUUID();
