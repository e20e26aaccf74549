import sharp from 'sharp';
import { cancelledUploadsMigration, Limiter, type Logger, type ServiceDefinition, setSharpThreads } from '@frametext/service-kit';
import type { Config } from './config.js';
import type { GoogleAccess } from './data/google-auth.js';
import { googleTranslator } from './data/translation-client.js';
import { visionClient, type VisionClient } from './data/vision-client.js';
import { FailedUploads } from './domain/read-frame.js';
import { VisionBatcher, type VisionAnnotator } from './domain/vision-batcher.js';
import { cloudOcrConsumers } from './messaging/consumers.js';

export interface OcrCloudOptions {
  /** Service (and queue) name; tests pass a unique one so their queue is theirs alone. */
  name?: string;
  /** Postgres schema (tests pass a unique one). */
  dbSchema?: string;
  logger?: Logger;
  /** Google credentials as found at start (resolveGoogleAccess), or a test's fixed-token client. */
  google: GoogleAccess;
  /** Receives the batcher once built (tests look at the requests it sent). */
  onBatcher?: (batcher: VisionBatcher) => void;
}

export const OFF_MESSAGE =
  'Cloud AI is OFF: this worker does not take frames, and uploads cannot choose Cloud AI (the other engines work as usual). To turn it on, give it Google credentials with the Cloud Vision API (and Cloud Translation API for captions) enabled: see services/ocr-cloud/README.md';

/**
 * The Cloud AI engine: frames from ocr.requested.v1.cloud through Google Cloud Vision (and captions through Cloud
 * Translation), results as ocr.completed.v1. Without Google credentials it starts but consumes nothing, so frames
 * wait in the queue and uploads are not offered the engine (engine availability counts this queue's consumers).
 */
export function ocrCloudService(config: Config, opts: OcrCloudOptions): ServiceDefinition<Config> {
  const common = { name: opts.name ?? 'ocr-cloud', config, dbSchema: opts.dbSchema, migrations: [cancelledUploadsMigration], usesStorage: true, logger: opts.logger };
  const google = opts.google;
  if (!google.on) {
    return {
      ...common,
      consumes: [],
      consumers: () => [],
      setup({ logger }) {
        logger.warn({ reason: google.reason }, `${OFF_MESSAGE} (why: ${google.reason})`);
      },
    };
  }

  const timeoutMs = config.CLOUD_TIMEOUT_MS;
  const retry = { retries: config.CLOUD_RETRIES, baseMs: config.CLOUD_RETRY_BASE_MS };
  let client: VisionClient | undefined;
  const annotate: VisionAnnotator = (images) => (client ??= visionClient({ apiUrl: config.VISION_API_URL, authClient: google.authClient, timeoutMs })).annotate(images);
  const batcher = new VisionBatcher(annotate, {
    maxImages: config.VISION_BATCH_SIZE,
    maxBytes: config.VISION_MAX_REQUEST_BYTES,
    windowMs: config.VISION_BATCH_WINDOW_MS,
    concurrency: config.CLOUD_CONCURRENCY,
    retry,
  });
  opts.onBatcher?.(batcher);
  const translations = new Limiter(config.CLOUD_CONCURRENCY);
  const translator = googleTranslator({ apiUrl: config.TRANSLATE_API_URL, authClient: google.authClient, timeoutMs });

  return {
    ...common,
    consumes: ['ocr.requested.v1', 'upload.deleted.v1'],
    consumers: ({ storage, metrics, db }) => {
      if (!storage) throw new Error('ocr-cloud needs the object store');
      setSharpThreads(sharp, config);
      return cloudOcrConsumers(
        {
          readFrame: (key) => storage.getBuffer(key),
          annotate: (image) => batcher.read(image),
          translate: (texts, target, source) => translations.run(() => translator(texts, target, source)),
          translateRetry: retry,
          limits: { maxPixels: config.OCR_MAX_PIXELS, maxBytes: config.VISION_MAX_IMAGE_BYTES, maxSide: config.VISION_MAX_SIDE },
          failedUploads: new FailedUploads(),
        },
        config.BUS_MAX_ATTEMPTS,
        db,
        metrics,
      );
    },
    setup({ logger }) {
      if (google.warning) logger.warn(`Cloud AI is on, but ${google.warning}`);
      logger.info({ vision: config.VISION_API_URL, batch: config.VISION_BATCH_SIZE, windowMs: config.VISION_BATCH_WINDOW_MS }, 'Cloud AI is on: reading frames with Google Cloud Vision');
      return async () => {
        batcher.drain();
        await client?.close();
      };
    },
  };
}
