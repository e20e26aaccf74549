import { describe, expect, it } from 'vitest';
import { commonUnit, parseValue, readingUnit } from './number-parsing.js';

const numberIn = (text: string) => parseValue(text, { times: false })?.value ?? null;
const whole = (text: string) => parseValue(text, { find: 'whole' });

describe('parseValue: the first value in a text', () => {
  it('reads English and European grouping and decimals', () => {
    expect(numberIn('1,234.5')).toBe(1234.5);
    expect(numberIn('1.234,5')).toBe(1234.5);
    expect(numberIn('48,215,903')).toBe(48215903);
    expect(numberIn('48.215.903')).toBe(48215903);
    expect(numberIn('1,234')).toBe(1234);
  });

  it('reads a lone separator as the decimal mark unless it groups thousands', () => {
    expect(numberIn('42,5 kW')).toBe(42.5);
    expect(numberIn('3.14')).toBe(3.14);
    expect(numberIn('1234,567')).toBe(1234.567);
    expect(numberIn('12,50')).toBe(12.5);
  });

  it('takes the first number, with a sign written against it, and gives null when there is none', () => {
    expect(numberIn('Battery 81% of 100')).toBe(81);
    expect(numberIn('-3.2 °C')).toBe(-3.2);
    expect(numberIn('−7')).toBe(-7);
    expect(numberIn('–7')).toBe(-7);
    expect(numberIn('+7')).toBe(7);
    expect(numberIn('10 - 20')).toBe(10);
    expect(numberIn('From - 20')).toBe(20);
    expect(numberIn('')).toBeNull();
    expect(numberIn('n/a')).toBeNull();
    expect(numberIn(`${'9'.repeat(400)} kW`)).toBeNull();
  });

  it('reads a time as seconds, before any number, unless times are off', () => {
    expect(parseValue('11:12')).toMatchObject({ kind: 'time', value: 672 });
    expect(parseValue('Elapsed 1:02:03')).toMatchObject({ kind: 'time', value: 3723 });
    expect(parseValue('0:45.5')).toMatchObject({ kind: 'time', value: 45.5 });
    expect(parseValue('Lap 3 at 11:12')).toMatchObject({ kind: 'time', value: 672 });
    expect(parseValue('150 kW')).toMatchObject({ kind: 'number', value: 150 });
    for (const text of ['11', '12:75', '1:2:3:4']) expect(parseValue(text)?.kind, text).not.toBe('time');
    expect(parseValue('n/a')).toBeNull();
    expect(numberIn('11:12')).toBe(11);
  });
});

describe('parseValue: a whole reading', () => {
  it('reads a number with its sign, decimal mark and unit, glued or apart, and the label before it', () => {
    expect(whole('45%')).toEqual({ kind: 'number', value: 45, sign: '', decimalComma: false, label: '', unit: '%' });
    expect(whole('Battery: 45 %')).toMatchObject({ label: 'Battery:', value: 45, unit: '%' });
    expect(whole('Pump 1 52.3 kW')).toMatchObject({ label: 'Pump 1 ', value: 52.3, unit: 'kW' });
    expect(whole('Outside -3.5 °C')).toMatchObject({ label: 'Outside', value: -3.5, sign: '-', unit: '°C' });
    // OCR often reads a minus a space apart from its digits.
    expect(whole('- 5 °C')).toMatchObject({ value: -5, sign: '-' });
    expect(whole('+2')).toMatchObject({ value: 2, sign: '+' });
    expect(whole('1,234 rpm')).toMatchObject({ value: 1234, decimalComma: false, unit: 'rpm' });
    expect(whole('42,5 kW')).toMatchObject({ value: 42.5, decimalComma: true });
    expect(whole('42,0')).toMatchObject({ value: 42, decimalComma: false });
    expect(whole('1000 KM/H')).toMatchObject({ unit: 'KM/H' });
    expect(whole('12 Gal')).toMatchObject({ unit: 'Gal' });
  });

  it('reads a time as seconds, with its label', () => {
    expect(whole('11:12')).toEqual({ kind: 'time', value: 672, sign: '', decimalComma: false, label: '', unit: null });
    expect(whole('Elapsed 00:01:05')).toMatchObject({ label: 'Elapsed', kind: 'time', value: 65 });
  });

  it('does not take words, sentences, misreads or a value with more after it for a reading', () => {
    for (const text of ['Battery', 'DC FAST CHARGER', 'kW', 'Lap 3 of many', '2 1%', '# 5', '', 'Service due', '12 furlongs', '$4.99', '12:75']) {
      expect(whole(text), text).toBeNull();
    }
  });

  it('takes a currency symbol between the sign and the digits when asked', () => {
    expect(parseValue('$4.99', { find: 'whole', currency: true })).toMatchObject({ label: '', value: 4.99 });
    expect(parseValue('-€5', { find: 'whole', currency: true })).toMatchObject({ value: -5, sign: '-' });
    expect(whole('Price $4.99')).toMatchObject({ label: 'Price $', value: 4.99 });
  });
});

describe('units in readings', () => {
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
