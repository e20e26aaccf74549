import type { AuthClient } from 'google-auth-library';
import type { Translation, Translator } from '../domain/translate.js';

/** Texts in one Translation v2 request (the API's limit is 128). */
export const TRANSLATE_MAX_SEGMENTS = 128;
/** Characters in one request; Google advises staying under 30 000 per call. */
export const TRANSLATE_MAX_CHARS = 25_000;

interface V2Answer {
  data?: { translations?: { translatedText?: string; detectedSourceLanguage?: string }[] };
}

/** Cuts texts into requests within the segment and character limits, keeping their order. */
export function chunkTexts(texts: string[], maxSegments = TRANSLATE_MAX_SEGMENTS, maxChars = TRANSLATE_MAX_CHARS): string[][] {
  const chunks: string[][] = [];
  let chunk: string[] = [];
  let chars = 0;
  for (const text of texts) {
    if (chunk.length > 0 && (chunk.length >= maxSegments || chars + text.length > maxChars)) {
      chunks.push(chunk);
      chunk = [];
      chars = 0;
    }
    chunk.push(text);
    chars += text.length;
  }
  if (chunk.length > 0) chunks.push(chunk);
  return chunks;
}

/**
 * Cloud Translation, basic edition (v2 REST), called with the same Google auth client as Vision. Plain HTTPS
 * rather than @google-cloud/translate: v2 needs no project id or location, takes 128 texts per call and detects
 * the source language when none is given; the client library would add a second gRPC/REST stack for one POST.
 * Errors are thrown as they come (gaxios errors with a status), for the caller to sort and retry.
 */
export function googleTranslator(opts: { apiUrl: string; authClient: AuthClient; timeoutMs: number }): Translator {
  const url = `${opts.apiUrl.replace(/\/+$/, '')}/language/translate/v2`;
  return async (texts, target, source) => {
    const out: Translation[] = [];
    for (const q of chunkTexts(texts)) {
      const res = await opts.authClient.request<V2Answer>({
        url,
        method: 'POST',
        data: { q, target, format: 'text', ...(source ? { source } : {}) },
        timeout: opts.timeoutMs,
        responseType: 'json',
      });
      const translations = res.data?.data?.translations ?? [];
      if (translations.length !== q.length) throw Object.assign(new Error(`Translation answered ${translations.length} texts of ${q.length}`), { status: 502 });
      out.push(...translations.map((t) => ({ text: t.translatedText ?? '', detectedSourceLanguage: t.detectedSourceLanguage ?? null })));
    }
    return out;
  };
}
