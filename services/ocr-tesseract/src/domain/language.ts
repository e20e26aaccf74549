import { languageOf } from '@frametext/contracts';

/**
 * The Tesseract model a frame is read with: the model the language list names for the upload's original language
 * (German `deu`, so umlauts come out as umlauts), when this worker has it installed; otherwise the default (OCR_LANG),
 * for Auto, for a language Tesseract has no model for, and on a worker built with fewer models.
 */
export function tesseractLanguage(code: string | null, fallback: string, installed: ReadonlySet<string>): string {
  const model = code === null ? null : languageOf(code)?.tesseract;
  return model && installed.has(model) ? model : fallback;
}
