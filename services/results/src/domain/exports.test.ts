import { describe, expect, it } from 'vitest';
import { attachmentDisposition } from './exports.js';

describe('the export’s Content-Disposition', () => {
  it('names the file as the app saves it, with its UTF-8 name beside an ASCII one when it has other characters', () => {
    expect(attachmentDisposition('export.csv')).toBe('attachment; filename="export.csv"');
    expect(attachmentDisposition('Vidéo 1-green.srt')).toBe(`attachment; filename="Vid_o 1-green.srt"; filename*=UTF-8''Vid%C3%A9o%201-green.srt`);
  });
});
