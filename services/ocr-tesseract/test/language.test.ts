import { describe, expect, it } from 'vitest';
import { LANGUAGES, TESSERACT_MODELS } from '@frametext/contracts';
import { tesseractLanguage } from '../src/domain/language.js';
import { tesseractModels } from '../src/data/tesseract.js';
import { tesseractEnv } from '../src/config.js';

describe('the Tesseract model of an upload', () => {
  const installed = new Set(['eng', 'deu', 'chi_tra']);

  it("is the original language's model when this worker has it, else the default", () => {
    expect(tesseractLanguage('de', 'eng', installed)).toBe('deu');
    expect(tesseractLanguage('zh-TW', 'eng', installed)).toBe('chi_tra');
    // Auto, a language with no Tesseract model, a model not installed here.
    expect(tesseractLanguage(null, 'eng', installed)).toBe('eng');
    expect(tesseractLanguage('zu', 'eng', installed)).toBe('eng');
    expect(tesseractLanguage('fr', 'eng+deu', installed)).toBe('eng+deu');
  });

  it('is installed on this machine for every language of the list that has one (npm start and npm test install them)', async () => {
    const here = await tesseractModels('tesseract', tesseractEnv());
    expect(TESSERACT_MODELS.filter((m) => !here.has(m))).toEqual([]);
    expect(LANGUAGES.filter((l) => l.tesseract !== null).length).toBeGreaterThanOrEqual(80);
  });
});
