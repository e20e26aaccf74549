import type { Logger, ServiceDefinition } from '@frametext/service-kit';
import { tesseractEnv, type Config } from './config.js';
import { FrameMemories } from './domain/frame-memory.js';
import { recognizeFrame, wantsSegmentReader, type Candidate, type FrameText } from './domain/recognize.js';
import { StepGate, type GateTicket } from './domain/step-gate.js';
import { tesseractLanguage } from './domain/language.js';
import { tesseractModels, tesseractVersion, type TesseractOptions } from './domain/tesseract.js';
import { TesseractPool } from './domain/tesseract-pool.js';
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
  // Each upload's last readings, so text where a frame did not change is carried over rather than read again.
  const memories = new FrameMemories<Candidate>();
  // Whether each upload's frames show seven-segment digits, so the segment reader stops where they show none; and
  // whether the mask pass reads each upload's plain screens better than the bare pass alone.
  const segmentGate = new StepGate();
  const maskGate = new StepGate();
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
    // Once the consumers have finished, the Tesseract processes end.
    setup: () => () => pool.close(),
    consumers: ({ storage, metrics, logger }) => {
      if (!storage) throw new Error('ocr-tesseract needs the object store');
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
      return ocrConsumers(
        {
          readFrame: (key) => storage.getBuffer(key),
          recognize: async (image, request) => {
            // Taken before anything here waits, so the upload's first frame to arrive is the one that reads first.
            const memory = memories.of(`${request.uploadId}:${request.originalLanguage ?? ''}`);
            let segments: GateTicket | undefined;
            let mask: GateTicket | undefined;
            let text: FrameText | undefined;
            try {
              const lang = await modelFor(request.originalLanguage);
              if (wantsSegmentReader(request.mediaContent)) segments = await segmentGate.enter(request.uploadId);
              text = await recognizeFrame(await image, recognizeOptions, (pgm) => pool.read(pgm, lang), request.mediaContent, {
                memory,
                readSegments: segments?.run ?? false,
                // The reader's verdict is in before Tesseract runs: the frames waiting on it go on at once.
                segmentsRead: (values) => segments?.close({ gained: values, lost: 0 }),
                readMask: async () => (mask = await maskGate.enter(request.uploadId)).run,
              });
            } finally {
              memory.settle();
              segments?.close();
              mask?.close(text?.maskVerdicts);
            }
            return text;
          },
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
