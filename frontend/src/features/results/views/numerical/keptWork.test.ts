import { parseKeptWork } from '@frametext/contracts';
import { DEFAULT_TRACKING_SETTINGS, numericalWork } from '@frametext/text-analysis';
import { describe, expect, it } from 'vitest';
import { restoreNumericalWork } from './keptWork';

describe('the Numerical view’s kept work', () => {
  it('keeps the corrections typed while proofreading, and comes back with them after a reload', () => {
    const corrections = { '1001': { '3': '45.5', '7': '' } };
    const kept = numericalWork([], DEFAULT_TRACKING_SETTINGS, corrections);
    // What the server stores and answers is JSON that passes the view's schema.
    const stored = JSON.parse(JSON.stringify(kept)) as unknown;
    expect(parseKeptWork('numerical', stored)).not.toBeNull();
    expect(restoreNumericalWork(stored, [])?.corrections).toEqual(corrections);
  });

  it('writes no corrections field when there are none, so work kept before proofreading reads back unchanged', () => {
    const kept = numericalWork([], DEFAULT_TRACKING_SETTINGS, {});
    expect('corrections' in kept).toBe(false);
    expect(restoreNumericalWork(JSON.parse(JSON.stringify(kept)), [])?.corrections).toEqual({});
  });
});
