import { describe, expect, it } from 'vitest';
import { commonUnit, parseChartReading, parseClockReading, parseLocaleNumber, readingUnit } from './number-parsing.js';

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

describe('times and units in readings', () => {
  it('reads a time as seconds, not as the number before the colon', () => {
    expect(parseClockReading('11:12')).toBe(672);
    expect(parseClockReading('Elapsed 1:02:03')).toBe(3723);
    expect(parseClockReading('0:45.5')).toBe(45.5);
    expect(parseClockReading('11')).toBeNull();
    expect(parseClockReading('12:75')).toBeNull();
    expect(parseClockReading('1:2:3:4')).toBeNull();
    expect(parseChartReading('11:12')).toEqual({ value: 672, isTime: true });
    expect(parseChartReading('150 kW')).toEqual({ value: 150, isTime: false });
    expect(parseChartReading('n/a')).toBeNull();
  });

  it('finds the unit after the first number, and the one most readings of a series show', () => {
    expect(readingUnit('Battery 20%')).toBe('%');
    expect(readingUnit('150 kW')).toBe('kW');
    expect(readingUnit('12 km/h')).toBe('km/h');
    expect(readingUnit('21 °C')).toBe('°C');
    expect(readingUnit('150')).toBeNull();
    expect(commonUnit(['150 kW', '149 KW', '148 kN', 'n/a'])).toBe('kW');
    expect(commonUnit(['1', '2'])).toBeNull();
  });
});
