import { describe, expect, it } from 'vitest';
import { blockSimilarity, characterErrorRate, comparableText, digitShape, editDistance, similarAsWritten, similarEnough, textSimilarity } from './text-similarity.js';

describe('text similarity', () => {
  it('counts edits', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
    // With a limit, it stops early and says "more than the limit".
    expect(editDistance('kitten', 'sitting', 1)).toBe(2);
    expect(editDistance('a', 'abcdef', 2)).toBe(3);
  });

  it('reads numbers as one mark in the shape', () => {
    expect(digitShape('Battery  21%')).toBe('battery #%');
    expect(digitShape('Power 42.5 kW')).toBe('power # kw');
    expect(digitShape('Elapsed 01:05')).toBe('elapsed #');
    expect(digitShape('1,234,567 items')).toBe('# items');
  });

  it('takes the better of the plain and the digit-insensitive similarity', () => {
    expect(textSimilarity('abcd', 'abce')).toBe(0.75);
    expect(textSimilarity('', '')).toBe(1);
    expect(blockSimilarity('Battery 20%', 'Battery 21%')).toBe(1);
    expect(blockSimilarity('99 kW', '100 kW')).toBe(1);
    expect(blockSimilarity('Alpha', 'Alpha!')).toBeCloseTo(5 / 6);
    expect(blockSimilarity('Battery', 'Power')).toBeLessThan(0.5);
  });

  it('decides "similar enough" at the threshold, both ends included', () => {
    const a = comparableText('abcd');
    expect(similarEnough(a, comparableText('abce'), 0.75)).toBe(true);
    expect(similarEnough(a, comparableText('abce'), 0.76)).toBe(false);
    expect(similarEnough(comparableText('Speed 120'), comparableText('Speed 95'), 1)).toBe(true);
    expect(similarAsWritten(comparableText('Speed 120'), comparableText('Speed 95'), 0.85)).toBe(false);
    expect(similarAsWritten(comparableText('SPEED 120'), comparableText('speed  120'), 1)).toBe(true);
  });
});

describe('characterErrorRate', () => {
  it('counts the edits from the reading to the truth over the truth’s length, spaces tidied', () => {
    expect(characterErrorRate('• Costs  stayed flat', '• Costs stayed flat')).toBe(0);
    expect(characterErrorRate('¢ Costs stayed flat', '• Costs stayed flat')).toBeCloseTo(1 / 19);
    expect(characterErrorRate('', '')).toBe(0);
    expect(characterErrorRate('x', '')).toBe(1);
  });
});
