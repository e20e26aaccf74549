import type { Detection, EventData } from '@frametext/contracts';

/** One text translated, and the language Google took it to be in (when it had to guess). */
export interface Translation {
  text: string;
  detectedSourceLanguage: string | null;
}

/** Translates texts to `target`, from `source` (null: Google detects it). One answer per text, in order. */
export type Translator = (texts: string[], target: string, source: string | null) => Promise<Translation[]>;

export interface TranslationPlan {
  target: string;
  /** null: detect the source language ("Auto"). */
  source: string | null;
}

/**
 * Whether a frame's captions are translated: captions mode with a target language ("Same" is null: none) that
 * differs from the original. An original of null ("Auto") lets Google detect the language.
 */
export function translationPlan(request: Pick<EventData<'ocr.requested.v1'>, 'mediaContent' | 'originalLanguage' | 'targetLanguage'>): TranslationPlan | null {
  if (request.mediaContent !== 'captions' || request.targetLanguage === null) return null;
  if (request.originalLanguage !== null && sameLanguage(request.originalLanguage, request.targetLanguage)) return null;
  return { target: request.targetLanguage, source: request.originalLanguage };
}

/** `en` and `en-GB` are one language for this purpose; `zh-CN` and `zh-TW` are not. */
export function sameLanguage(a: string, b: string): boolean {
  const [la, ra] = a.toLowerCase().split('-');
  const [lb, rb] = b.toLowerCase().split('-');
  if (la !== lb) return false;
  return la === 'zh' ? (ra ?? 'cn') === (rb ?? 'cn') : true;
}

/**
 * Each caption's text translated, the text as read kept as `originalText`. A caption Google found to be in the
 * target language already is left as it is (no originalText), so the CSV shows no pointless original column.
 */
export async function translateDetections(detections: Detection[], plan: TranslationPlan, translate: Translator): Promise<Detection[]> {
  if (detections.length === 0) return detections;
  const translated = await translate(
    detections.map((d) => d.text),
    plan.target,
    plan.source,
  );
  return detections.map((d, i) => {
    const t = translated[i];
    if (!t || (t.detectedSourceLanguage !== null && sameLanguage(t.detectedSourceLanguage, plan.target))) return d;
    return { ...d, text: t.text, originalText: d.text };
  });
}
