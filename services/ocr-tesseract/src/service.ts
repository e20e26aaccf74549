import { Limiter, type Logger, type ServiceDefinition } from '@frametext/service-kit';
import { tesseractEnv, type Config } from './config.js';
import { recognizeFrame } from './domain/recognize.js';
import { runTesseract, tesseractVersion, type TesseractOptions } from './domain/tesseract.js';
import { ocrConsumers } from './messaging/consumers.js';

export interface OcrServiceOptions {
  /** Service (and queue) name; tests pass a unique one so their queue is theirs alone. */
  name?: string;
  /** Postgres schema (tests pass a unique one). */
  dbSchema?: string;
  logger?: Logger;
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
  const limiter = new Limiter(config.OCR_CONCURRENCY);
  const recognizeOptions = {
    whiteMask: config.OCR_WHITE_MASK,
    whiteThreshold: config.OCR_WHITE_THRESHOLD,
    minWordConfidence: config.OCR_MIN_WORD_CONFIDENCE,
    maxPixels: config.OCR_MAX_PIXELS,
  };
  return {
    name: opts.name ?? 'ocr-tesseract',
    config,
    dbSchema: opts.dbSchema,
    migrations: [],
    usesStorage: true,
    logger: opts.logger,
    consumes: ['ocr.requested.v1'],
    consumers: ({ storage, metrics }) => {
      if (!storage) throw new Error('ocr-tesseract needs the object store');
      return ocrConsumers(
        {
          readFrame: (key) => storage.getBuffer(key),
          // One frame holds one core at a time: its passes run one after the other.
          recognize: (image, mediaContent) => limiter.run(() => recognizeFrame(image, recognizeOptions, (pgm) => runTesseract(pgm, tesseract), mediaContent)),
        },
        config.BUS_MAX_ATTEMPTS,
        metrics,
      );
    },
    readiness: () => ({
      tesseract: async () => {
        await tesseractVersion(tesseract.binary, tesseract.env);
      },
    }),
  };
}
