import type { JsonSchema, OpenApiDocument } from '@frametext/contracts/openapi';

/*
 * Reading the JSON Schemas of the API description for people: a one-line type with its limits
 * ("string, 1 to 128 characters"), the fields of an object, the items of a list and the variants of a choice.
 */

/** The component a `#/components/schemas/<name>` reference names, with that name; other schemas as they are. */
export function resolve(schema: JsonSchema, doc: OpenApiDocument): { schema: JsonSchema; name?: string } {
  const ref = typeof schema.$ref === 'string' ? schema.$ref : undefined;
  if (!ref) return { schema };
  const name = ref.replace('#/components/schemas/', '');
  return { schema: doc.components.schemas[name] ?? {}, name };
}

const asSchema = (v: unknown): JsonSchema | undefined => (v && typeof v === 'object' && !Array.isArray(v) ? (v as JsonSchema) : undefined);
const num = (v: unknown) => (typeof v === 'number' ? v : undefined);

/** The variants of a choice (anyOf / oneOf), null left out: "or null" is said on the type instead. */
export function variantsOf(schema: JsonSchema): JsonSchema[] {
  const list = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  return (list ?? []).map(asSchema).filter((s): s is JsonSchema => s !== undefined && s.type !== 'null');
}

export function isNullable(schema: JsonSchema): boolean {
  const list = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined;
  return (Array.isArray(schema.type) && schema.type.includes('null')) || (list ?? []).some((s) => asSchema(s)?.type === 'null');
}

/** The fields of an object schema, in order, with whether each is required. */
export function fieldsOf(schema: JsonSchema): { name: string; schema: JsonSchema; required: boolean }[] {
  const properties = asSchema(schema.properties) ?? {};
  const required = new Set((schema.required as string[] | undefined) ?? []);
  return Object.entries(properties).map(([name, s]) => ({ name, schema: asSchema(s) ?? {}, required: required.has(name) }));
}

/** The schema of a list's items, when it is one. */
export const itemsOf = (schema: JsonSchema): JsonSchema | undefined => (schema.type === 'array' ? asSchema(schema.items) : undefined);

/** Extra keys an object allows (a map such as `services`), when it describes them. */
export const mapValuesOf = (schema: JsonSchema): JsonSchema | undefined => asSchema(schema.additionalProperties);

const quote = (v: unknown) => JSON.stringify(v);

/** `1 to 128 characters`, `at least 1 item`: a unit (plural) after the last number, singular after a 1. */
function range(low: number | undefined, high: number | undefined, unit: string): string | undefined {
  const counted = (n: number) => (unit ? `${n} ${n === 1 ? unit.replace(/s$/, '') : unit}` : String(n));
  if (low !== undefined && high !== undefined) return low === high ? `exactly ${counted(low)}` : `${low} to ${counted(high)}`;
  if (low !== undefined) return `at least ${counted(low)}`;
  if (high !== undefined) return `at most ${counted(high)}`;
  return undefined;
}

/** Limits worth a reader's time: JavaScript's largest safe integer is an artefact of the generator, not a rule. */
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** One line: the type and its limits, such as `string, 1 to 128 characters` or `one of "name", "timestamp"`. */
export function typeLine(schema: JsonSchema, doc: OpenApiDocument): string {
  const { schema: s, name } = resolve(schema, doc);
  const parts: string[] = [];
  const types = (Array.isArray(s.type) ? s.type : [s.type]).filter((t): t is string => typeof t === 'string' && t !== 'null');

  if (s.const !== undefined) parts.push(`always ${quote(s.const)}`);
  else if (Array.isArray(s.enum)) parts.push(`one of ${s.enum.filter((v) => v !== null).map(quote).join(', ')}`);
  else if (variantsOf(s).length > 0) parts.push(variantsOf(s).length === 1 ? typeLine(variantsOf(s)[0]!, doc) : `one of ${variantsOf(s).length} forms`);
  else if (types[0] === 'array') {
    const items = itemsOf(s);
    parts.push(`list${items ? ` of ${typeLine(items, doc)}` : ''}`);
    const count = range(num(s.minItems), num(s.maxItems), 'items');
    if (count) parts.push(count);
  } else if (types.length > 0) {
    parts.push(types.map((t) => (t === 'integer' ? 'whole number' : t)).join(' or '));
    const length = range(num(s.minLength), num(s.maxLength), 'characters');
    if (length) parts.push(length);
    const low = num(s.minimum) ?? num(s.exclusiveMinimum);
    const high = num(s.maximum) === MAX_SAFE ? undefined : (num(s.maximum) ?? num(s.exclusiveMaximum));
    if (num(s.exclusiveMinimum) !== undefined && low === 0 && high === undefined) parts.push('above 0');
    else {
      const values = range(low, high, '');
      if (values) parts.push(values);
    }
    // A format says it better than the generator's long regular expression for it.
    if (typeof s.format === 'string') parts.push(s.format);
    else if (typeof s.pattern === 'string') parts.push(`matching ${s.pattern}`);
  } else if (!name) {
    parts.push('any value');
  }
  if (name) parts[0] = parts[0] ? `${name}: ${parts[0]}` : name;
  if (isNullable(s)) parts.push('or null');
  if (s.default !== undefined) parts.push(`default ${quote(s.default)}`);
  return parts.join(', ');
}
