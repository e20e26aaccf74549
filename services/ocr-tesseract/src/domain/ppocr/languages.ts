/**
 * The upload languages (the language list's codes) whose frames PP-OCR reads, in `captions` uploads: Chinese, which
 * the package's recogniser was trained on (its 6 623 characters are simplified Chinese with the common traditional
 * ones, Latin letters, digits and punctuation). It has no kana or hangul: Japanese and Korean stay with Tesseract.
 */
export const PPOCR_LANGUAGES: ReadonlySet<string> = new Set(['zh-CN', 'zh-TW']);

export function readsWithPpOcr(language: string | null, mediaContent: string | undefined): boolean {
  return mediaContent === 'captions' && language !== null && PPOCR_LANGUAGES.has(language);
}
