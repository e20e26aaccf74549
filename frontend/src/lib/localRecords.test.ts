import { describe, expect, it } from 'vitest';
import { LOCAL_RECORDS_MAX, idsBeyondLimit, isLocalId, newLocalId } from './localRecords';

describe('local records', () => {
  it('makes local- ids that sort by time and do not collide within a millisecond', () => {
    const ids = new Set(Array.from({ length: 50 }, () => newLocalId(1_700_000_000_000)));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(/^local-1700000000000-[0-9a-z]{6}$/);
    expect(isLocalId('local-1')).toBe(true);
    expect(isLocalId('abc')).toBe(false);
  });

  it('keeps at most LOCAL_RECORDS_MAX records, removing the oldest by _addedAt (or uploadedAt)', () => {
    expect(LOCAL_RECORDS_MAX).toBe(20);
    const records = Array.from({ length: 22 }, (_, i) => ({ id: `local-${i}`, data: [], _addedAt: 1000 + i }));
    expect(idsBeyondLimit(records)).toEqual(['local-0', 'local-1']);
    expect(idsBeyondLimit(records.slice(0, 20))).toEqual([]);
    const older = [{ id: 'local-old', data: [], uploadedAt: '2020-01-01T00:00:00.000Z' }, { id: 'local-new', data: [], _addedAt: Date.now() }];
    expect(idsBeyondLimit(older, 1)).toEqual(['local-old']);
  });
});
