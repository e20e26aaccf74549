import { describe, expect, it } from 'vitest';
import { normaliseBullets } from './bullets.js';

describe('bullets in the Presentation text', () => {
  it('writes the symbols Tesseract reads bullets as (¢ * ° « - ■) as •', () => {
    expect(normaliseBullets(['Quarterly review', '¢ Costs stayed flat', '* Hiring is on plan', '° Audit log by autumn', '« Offline mode', '- Three teams', '■ Two key people'])).toEqual([
      'Quarterly review',
      '• Costs stayed flat',
      '• Hiring is on plan',
      '• Audit log by autumn',
      '• Offline mode',
      '• Three teams',
      '• Two key people',
    ]);
  });

  it('takes a lone lower-case letter before a capitalised word as a bullet (e Revenue grew)', () => {
    expect(normaliseBullets(['Quarterly review', 'e Revenue grew in every region'])).toEqual(['Quarterly review', '• Revenue grew in every region']);
  });

  it('takes lone letters as bullets in a list of at least two such lines, whatever follows', () => {
    expect(normaliseBullets(['What we learned', 'a Small releases are safer', 'a write the test first'])).toEqual(['What we learned', '• Small releases are safer', '• write the test first']);
    expect(normaliseBullets(['m Hire two more engineers', 'e open the Berlin office'])).toEqual(['• Hire two more engineers', '• open the Berlin office']);
    // Two letters without a vowel are no English word: ▪ read as "mw" or "gw".
    expect(normaliseBullets(['Next steps', 'mw Hire two more engineers'])).toEqual(['Next steps', '• Hire two more engineers']);
    expect(normaliseBullets(['= releases are safer', 'gw Write the test first'])).toEqual(['• releases are safer', '• Write the test first']);
  });

  it('leaves real text alone: words joined to a symbol, words with a hyphen, a sentence that starts with "a"', () => {
    const text = ['*Note: prices exclude tax', 'e-mail us at sales@example.com', '-5 °C at night', '°C and °F', 'a small team did it', 'I think so', 'x', '“Quoted” words', 'to Berlin and back', 'an Apple a day', 'Go home', '12 Monkeys'];
    expect(normaliseBullets(text)).toEqual(text);
  });

  it('keeps a line that is only a symbol, and one bullet that is already right', () => {
    expect(normaliseBullets(['*', '• Already a bullet'])).toEqual(['*', '• Already a bullet']);
  });
});
