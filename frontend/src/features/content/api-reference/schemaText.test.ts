import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '@frametext/contracts/openapi';
import { fieldsOf, typeLine } from './schemaText';

const doc = { components: { schemas: { Vertex: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] } } } } as unknown as OpenApiDocument;

describe('typeLine', () => {
  it('says a type with its limits as a sentence would', () => {
    expect(typeLine({ type: 'string', minLength: 1, maxLength: 128 }, doc)).toBe('string, 1 to 128 characters');
    expect(typeLine({ type: 'array', items: { type: 'string' }, minItems: 1 }, doc)).toBe('list of string, at least 1 item');
    expect(typeLine({ type: 'integer', minimum: 0, maximum: Number.MAX_SAFE_INTEGER }, doc)).toBe('whole number, at least 0');
    expect(typeLine({ type: 'number', exclusiveMinimum: 0 }, doc)).toBe('number, above 0');
    expect(typeLine({ type: 'string', enum: ['name', 'timestamp'], default: 'name' }, doc)).toBe('one of "name", "timestamp", default "name"');
    expect(typeLine({ anyOf: [{ type: 'integer', minimum: 0 }, { type: 'null' }] }, doc)).toBe('whole number, at least 0, or null');
  });

  it('names a format instead of its long pattern, and a referenced component by its name', () => {
    expect(typeLine({ type: 'string', format: 'date-time', pattern: '^(?:(?:\\d\\d[2468][048]|...)$' }, doc)).toBe('string, date-time');
    expect(typeLine({ type: 'string', pattern: '^cs_[A-Za-z0-9_]{1,250}$' }, doc)).toBe('string, matching ^cs_[A-Za-z0-9_]{1,250}$');
    expect(typeLine({ $ref: '#/components/schemas/Vertex' }, doc)).toBe('Vertex: object');
    expect(fieldsOf(doc.components.schemas.Vertex!)).toEqual([{ name: 'x', schema: { type: 'number' }, required: true }]);
  });
});
