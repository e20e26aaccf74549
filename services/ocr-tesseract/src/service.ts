import { access, constants } from 'node:fs/promises';
import sharp from 'sharp';
import { cancellationLookout, cancelledUploadsMigration, type Logger, type ServiceDefinition, setSharpThreads } from '@frametext/service-kit';
import { tesseractEnv, type Config } from './config.js';
import type { RecognizeOptions } from './domain/recognize.js';
import { UploadReader } from './domain/upload-reader.js';
import { tesseractLanguage } from './domain/language.js';
import { modelFiles } from './data/ppocr-models.js';
import { PpOcrReader } from './domain/ppocr/reader.js';
import { tesseractModels, tesseractVersion, type TesseractOptions } from './data/tesseract.js';
import { TesseractPool } from './data/tesseract-pool.js';
import { ocrConsumers } from './messaging/consumers.js';

export interface OcrServiceOptions {
  /** Service (and queue) name; tests pass a unique one so their queue is theirs alone. */
  name?: string;
  /** Postgres schema (tests pass a unique one). */
  dbSchema?: string;
  logger?: Logger;
}

/** The worker's Tesseract processes: one lane per core, each a process that stays up. */
export function tesseractPool(config: Config, tesseract = tesseractOptions(config)): TesseractPool {
  return new TesseractPool(tesseract, { lanes: config.OCR_CONCURRENCY });
}

/**
 * The Basic engine reading uploads' frames with `pool`, as the worker's settings say: Tesseract, and PP-OCR for Chinese
 * captions, in the pool's lanes too.
 */
export function uploadReader(config: Config, pool: TesseractPool): UploadReader {
  const ppocr = new PpOcrReader({ maxPixels: config.OCR_MAX_PIXELS }, (job, beforeRead) => pool.runInLane(job, beforeRead));
  return new UploadReader(recognizeOptions(config), (image, lang, budget, beforeRead) => pool.read(image, lang, budget, beforeRead), ppocr);
}

/** How frames are read, from the worker's settings. */
export function recognizeOptions(config: Config): RecognizeOptions {
  return {
    whiteMask: config.OCR_WHITE_MASK,
    whiteThreshold: config.OCR_WHITE_THRESHOLD,
    minWordConfidence: config.OCR_MIN_WORD_CONFIDENCE,
    maxPixels: config.OCR_MAX_PIXELS,
    maxReadPixels: config.OCR_READ_MAX_PIXELS,
    frameCpuBudgetMs: config.OCR_FRAME_CPU_BUDGET_MS,
  };
}

export function tesseractOptions(config: Config): TesseractOptions {
  return {
    binary: config.TESSERACT_PATH,
    lang: config.OCR_LANG,
    timeoutMs: config.OCR_TIMEOUT_MS,
    maxOutputBytes: config.OCR_MAX_OUTPUT_BYTES,
    env: tesseractEnv(),
  };
}

/** The Basic OCR engine: frames from ocr.requested.v1.server through Tesseract, results as ocr.completed.v1. */
export function ocrTesseractService(config: Config, opts: OcrServiceOptions = {}): ServiceDefinition<Config> {
  const tesseract = tesseractOptions(config);
  const pool = tesseractPool(config, tesseract);
  const reader = uploadReader(config, pool);
  return {
    name: opts.name ?? 'ocr-tesseract',
    config,
    dbSchema: opts.dbSchema,
    migrations: [cancelledUploadsMigration],
    usesStorage: true,
    logger: opts.logger,
    consumes: ['ocr.requested.v1', 'upload.deleted.v1'],
    // Once the consumers have finished, the Tesseract processes end.
    setup: () => () => pool.close(),
    consumers: ({ storage, metrics, logger, db }) => {
      if (!storage) throw new Error('ocr-tesseract needs the object store');
      setSharpThreads(sharp, config);
      // The models this worker has, read once; a language whose model is missing is read with OCR_LANG, and said so.
      let models: Promise<Set<string>> | undefined;
      const installed = () =>
        (models ??= tesseractModels(tesseract.binary, tesseract.env).catch((err: Error) => {
          models = undefined;
          throw err;
        }));
      const modelFor = async (language: string | null) => {
        const lang = tesseractLanguage(language, tesseract.lang, await installed());
        if (language !== null && lang === tesseract.lang) logger.debug({ language, lang }, 'no Tesseract model of its own for this language here: reading with the default');
        return lang;
      };
      const stopIfCancelled = cancellationLookout(db);
      return ocrConsumers(
        {
          readFrame: (key) => storage.getBuffer(key),
          recognize: (image, request) =>
            reader.read(image, {
              uploadId: request.uploadId,
              mediaContent: request.mediaContent,
              originalLanguage: request.originalLanguage,
              model: modelFor(request.originalLanguage),
              fromVideo: request.fromVideo ?? false,
              // Each read waits for a lane; a deleted upload's frame stops when its turn comes (within a second).
              beforeRead: () => stopIfCancelled(request.uploadId),
            }),
        },
        config.BUS_MAX_ATTEMPTS,
        db,
        metrics,
      );
    },
    readiness: () => ({
      tesseract: async () => {
        await tesseractVersion(tesseract.binary, tesseract.env);
      },
      // PP-OCR's model files, for Chinese captions (loaded on the first such frame).
      ppocr: async () => {
        await Promise.all(Object.values(modelFiles()).map((file) => access(file, constants.R_OK)));
      },
    }),
  };
}
