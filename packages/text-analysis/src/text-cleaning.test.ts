import { describe, expect, it } from 'vitest';
import { cleanBlockText, defaultBlockSettings, keepSplitPiece, listedWords, numbersOnly, removeCharacters, removeWords } from './text-cleaning.js';

const settings = (over: Partial<ReturnType<typeof defaultBlockSettings>>) => ({ ...defaultBlockSettings('x'), ...over });

describe('text cleaning', () => {
  it('removes whole words in any case, listed with any separators', () => {
    expect(listedWords('kW, Battery;  total')).toEqual(['kW', 'Battery', 'total']);
    expect(removeWords('Battery 20% battery', ['BATTERY'])).toBe('20%');
    // Whole words only: "Power" stays in "PowerMax".
    expect(removeWords('PowerMax Power 42 kW', ['power', 'kw'])).toBe('PowerMax 42');
    expect(removeWords('Température 20 °C', ['température'])).toBe('20 °C');
  });

  it('removes every listed character', () => {
    expect(removeCharacters('1,234.5 kW%', ',%')).toBe('1234.5 kW');
    expect(removeCharacters('a+b', '')).toBe('a+b');
  });

  it('keeps the Nth piece after a split (1-based), and everything at 0', () => {
    expect(keepSplitPiece('12:34:56', ':', 2)).toBe('34');
    expect(keepSplitPiece('12:34:56', ':', 0)).toBe('12:34:56');
    expect(keepSplitPiece('12:34:56', ':', 4)).toBe('');
    expect(keepSplitPiece('12:34:56', '', 2)).toBe('12:34:56');
  });

  it('keeps digits and decimal points for numbers only', () => {
    expect(numbersOnly('Power 42.5 kW')).toBe('42.5');
    expect(numbersOnly('-3 °C')).toBe('3');
  });

  it('applies the steps in the spec order: words, characters, split, numbers', () => {
    // The word goes before the split: "Elapsed 01:05" -> "01:05" -> keeps "05".
    expect(cleanBlockText('Elapsed 01:05', settings({ wordsToRemove: 'elapsed', characterToSplit: ':', keepSplitItem: 2 }))).toBe('05');
    // Characters go before the split: removing ":" leaves nothing to split on.
    expect(cleanBlockText('01:05', settings({ charactersToRemove: ':', characterToSplit: ':', keepSplitItem: 2 }))).toBe('');
    // Numbers only comes last: the split still sees the letters.
    expect(cleanBlockText('Power 42.5 kW / max 150 kW', settings({ characterToSplit: '/', keepSplitItem: 1, numbersOnly: true }))).toBe('42.5');
    expect(cleanBlockText('  Battery   20% ', settings({}))).toBe('Battery 20%');
  });
});
