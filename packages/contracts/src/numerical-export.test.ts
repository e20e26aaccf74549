import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { numericalExportJsonSchema, numericalExportSchema } from './numerical-export.js';

const docs = readFileSync(new URL('../../../docs/exports.md', import.meta.url), 'utf8');

describe('the JSON export schema', () => {
  it('is in docs/exports.md as generated (pnpm --filter @frametext/contracts run export-schema)', () => {
    const block = /<!-- schema:start -->\s*```json\n([\s\S]*?)\n```\s*<!-- schema:end -->/.exec(docs);
    expect(block, 'docs/exports.md has no schema block').not.toBeNull();
    expect(JSON.parse(block![1]!)).toEqual(numericalExportJsonSchema());
  });

  it('requires the version and every field of a cell', () => {
    const base = { format: 'frametext.numerical', version: 1, exportedAt: '2026-01-01T00:00:00.000Z', upload: { id: 'u', name: 'n', kind: 'Video' }, frames: [], series: [] };
    expect(numericalExportSchema.safeParse(base).success).toBe(true);
    expect(numericalExportSchema.safeParse({ ...base, version: undefined }).success).toBe(false);
    const cell = { frame: 1, value: '4', number: 4, reading: '4', confidence: 90, corrected: false, unsure: [] };
    const series = { id: 1, name: 'Speed', unit: null, isTime: false, cells: [cell] };
    expect(numericalExportSchema.safeParse({ ...base, series: [series] }).success).toBe(true);
    expect(numericalExportSchema.safeParse({ ...base, series: [{ ...series, cells: [{ ...cell, confidence: 120 }] }] }).success).toBe(false);
  });
});
