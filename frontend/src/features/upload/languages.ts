import { LANGUAGES as LANGUAGE_LIST } from '@frametext/contracts/languages';

/**
 * The captions-mode choices: the language list of @frametext/contracts (about 100 languages with a label and a
 * code), and two entries without a code: Same (keep the original language, no translation) and Auto (detect it).
 */
export interface Language {
  label: string;
  code: string | null;
}

export const SAME_LANGUAGE: Language = { label: 'Same', code: null };
export const AUTO_LANGUAGE: Language = { label: 'Auto', code: null };

export const LANGUAGES: readonly Language[] = LANGUAGE_LIST.map(({ label, code }) => ({ label, code }));

/** Choices for the original language (Auto first) and the target language (Same first). */
export const ORIGINAL_LANGUAGES: readonly Language[] = [AUTO_LANGUAGE, ...LANGUAGES];
export const TARGET_LANGUAGES: readonly Language[] = [SAME_LANGUAGE, ...LANGUAGES];

/** Two real languages that are the same: the target must then be cleared. Same and Auto never clash. */
export const languagesClash = (original: string | null, target: string | null) => original !== null && original === target;
