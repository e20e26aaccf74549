import { describe, expect, it } from 'vitest';
import { BOM, csvCell, quotedCsvCell, toCsv } from './csv.js';

describe('csv', () => {
  it('guards cells a spreadsheet would run as formulas', () => {
    expect(csvCell('=SUM(A1:A2)')).toBe("'=SUM(A1:A2)");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-5')).toBe("'-5");
    expect(csvCell('@cmd')).toBe("'@cmd");
    expect(csvCell('5-')).toBe('5-');
  });

  it('quotes quotes, commas, line breaks and edge spaces, and leaves plain values alone', () => {
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('1,234')).toBe('"1,234"');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(' padded')).toBe('" padded"');
    expect(csvCell('padded ')).toBe('"padded "');
    expect(csvCell('plain text')).toBe('plain text');
    expect(csvCell(42)).toBe('42');
    expect(csvCell(null)).toBe('');
  });

  it('guards and quotes together, and always quotes names', () => {
    expect(csvCell('=1,2')).toBe(`"'=1,2"`);
    expect(quotedCsvCell('Battery Block')).toBe('"Battery Block"');
    expect(quotedCsvCell('=x')).toBe(`"'=x"`);
  });

  it('writes rows with CRLF and an optional byte-order mark', () => {
    expect(toCsv([['Frame', 'Time'], [1, '0:05']])).toBe(`${BOM}Frame,Time\r\n1,0:05\r\n`);
  });
});
