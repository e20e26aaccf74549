import { createScheduler, createWorker, OEM, PSM, type Scheduler } from 'tesseract.js';
import { corePath, langPath, workerPath } from 'virtual:ocr-assets';
import { readPage, type FrameReading, type TessPage } from './reading';

/**
 * The spec: up to 3 workers. One core is left to the page (a worker per core would keep the page's own tasks
 * waiting: measured on 2 cores, 2 workers stretched its short tasks to 60-90 ms), and there are never more workers
 * than frames.
 */
export const MAX_OCR_WORKERS = 3;

/**
 * Tesseract as the Basic engine runs it on the server: the CLI's defaults, which tesseract.js does not share.
 * Page segmentation 3 (fully automatic, no orientation detection; tesseract.js would use 6, one uniform block) and
 * the LSTM engine (OEM 1, which the CLI's default picks for an LSTM model), English.
 */
export const OCR_LANGUAGE = 'eng';
export const OCR_ENGINE_MODE = OEM.LSTM_ONLY;
export const OCR_PARAMETERS = { tessedit_pageseg_mode: PSM.AUTO } as const;

export function workerCount(frames: number, cores = typeof navigator === 'undefined' ? 2 : navigator.hardwareConcurrency || 2): number {
  return Math.max(1, Math.min(MAX_OCR_WORKERS, cores - 1, frames));
}

export interface OcrPool {
  /**
   * Reads one frame of `width` x `height` given as grey PGM images: the frame, and its white mask when the second
   * pass is wanted. The passes run as jobs of their own (in parallel when there are workers for it) and are merged.
   */
  read(images: { grey: Uint8Array; mask?: Uint8Array }, width: number, height: number): Promise<FrameReading>;
  close(): Promise<void>;
}

/**
 * Starts `workers` tesseract.js Web Workers, each loading the worker script, the core build for this browser and
 * the English model from our own origin (build/ocrAssets.ts), and spreads frames over them. Recognition runs in
 * the workers; the page only posts images and receives words.
 */
export async function openOcrPool(workers: number): Promise<OcrPool> {
  const scheduler: Scheduler = createScheduler();
  try {
    await Promise.all(
      Array.from({ length: workers }, async () => {
        const worker = await createWorker(OCR_LANGUAGE, OCR_ENGINE_MODE, { workerPath, corePath, langPath, workerBlobURL: false, gzip: true });
        await worker.setParameters(OCR_PARAMETERS);
        scheduler.addWorker(worker);
      }),
    );
  } catch (error) {
    await scheduler.terminate().catch(() => undefined);
    throw error;
  }
  return {
    async read({ grey, mask }, width, height) {
      // A Blob of the PGM bytes: tesseract.js reads it as it is, and Leptonica decodes PGM without a codec.
      const pass = async (pgm: Uint8Array) => {
        const result = await scheduler.addJob('recognize', new Blob([pgm as Uint8Array<ArrayBuffer>], { type: 'image/x-portable-graymap' }), {}, { blocks: true, text: false });
        return result.data as unknown as TessPage;
      };
      return readPage(await Promise.all(mask ? [pass(grey), pass(mask)] : [pass(grey)]), width, height);
    },
    close: () => scheduler.terminate().then(() => undefined),
  };
}
