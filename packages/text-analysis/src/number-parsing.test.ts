import { describe, expect, it } from 'vitest';
import { parseLocaleNumber } from './number-parsing.js';

describe('parseLocaleNumber', () => {
  it('reads English and European grouping and decimals', () => {
    expect(parseLocaleNumber('1,234.5')).toBe(1234.5);
    expect(parseLocaleNumber('1.234,5')).toBe(1234.5);
    expect(parseLocaleNumber('48,215,903')).toBe(48215903);
    expect(parseLocaleNumber('48.215.903')).toBe(48215903);
    expect(parseLocaleNumber('1,234')).toBe(1234);
  });

  it('reads a lone separator as the decimal mark unless it groups thousands', () => {
    expect(parseLocaleNumber('42,5 kW')).toBe(42.5);
    expect(parseLocaleNumber('3.14')).toBe(3.14);
    expect(parseLocaleNumber('1234,567')).toBe(1234.567);
    expect(parseLocaleNumber('12,50')).toBe(12.5);
  });

  it('takes the first number, with its sign, and gives null when there is none', () => {
    expect(parseLocaleNumber('Battery 81% of 100')).toBe(81);
    expect(parseLocaleNumber('-3.2 °C')).toBe(-3.2);
    expect(parseLocaleNumber('−7')).toBe(-7);
    expect(parseLocaleNumber('')).toBeNull();
    expect(parseLocaleNumber('n/a')).toBeNull();
  });
});
