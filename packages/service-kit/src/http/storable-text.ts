import type { NextFunction, Request, Response } from 'express';
import { AppError, badRequest } from '../errors/index.js';

/*
 * Text that reaches Postgres must be text Postgres can hold. `text` and `varchar` refuse the NUL character, and
 * `jsonb` refuses it and lone UTF-16 surrogates too (JSON.parse accepts "\ud800"; UTF-8 has no encoding for it).
 * Left to the database, such a value fails deep inside a handler (a 500, possibly after side effects such as a
 * credit hold). This guard refuses it before any handler runs, naming the field.
 */

/** Deepest nesting a JSON body may have. Our bodies nest a few levels; a deeper one is an attack or a bug. */
export const MAX_BODY_DEPTH = 32;

/**
 * Keys refused anywhere in a body or query. JSON.parse makes them plain own properties, harmless until some code
 * merges the object into another one; no client of ours ever sends them, so they are refused rather than trusted.
 */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype']);

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export type TextLocation = 'body' | 'query' | 'path';

/** What is wrong with `s` as storable text, or undefined when nothing is. */
export function textProblem(s: string): string | undefined {
  if (s.includes('\u0000')) return 'contains a NUL character (\\u0000), which text cannot hold; remove it';
  const surrogate = LONE_SURROGATE.exec(s);
  if (surrogate) {
    const code = surrogate[0].charCodeAt(0).toString(16);
    return `contains an unpaired UTF-16 surrogate (\\u${code}), which is not valid Unicode; send well-formed UTF-8 text`;
  }
  return undefined;
}

/** A value shown in a message: JSON-escaped (so a NUL reads as \u0000) and cut short. */
function shown(s: string): string {
  const escaped = JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s);
  // JSON.stringify keeps lone surrogates as they are; spell them out too.
  return escaped.replace(/[\uD800-\uDFFF]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

function invalidText(location: TextLocation, field: string, problem: string): AppError {
  const where = location === 'query' ? `query parameter ${field}` : field;
  return badRequest('request/invalid-text', `${where}: ${problem}.`, { location, field });
}

/**
 * Walks a parsed body or query (iteratively: a deeply nested body cannot exhaust the stack) and throws a 400 for
 * the first string or key that cannot be stored, for a forbidden key, or for nesting beyond MAX_BODY_DEPTH.
 * Fields are named by their path, as validation errors name them (`files.0.name`).
 */
export function assertStorableValue(value: unknown, location: 'body' | 'query'): void {
  const stack: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  const fieldName = (path: string) => path || (location === 'body' ? 'body' : 'query');
  while (stack.length > 0) {
    const { value: v, path, depth } = stack.pop()!;
    if (typeof v === 'string') {
      const problem = textProblem(v);
      if (problem) throw invalidText(location, fieldName(path), problem);
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= MAX_BODY_DEPTH) {
      throw badRequest('request/too-deep', `${fieldName(path)}: the ${location} nests deeper than ${MAX_BODY_DEPTH} levels; send a flatter value.`, {
        location,
        field: fieldName(path),
      });
    }
    for (const key of Object.keys(v)) {
      const keyPath = path ? `${path}.${key}` : key;
      const keyProblem = textProblem(key);
      if (keyProblem) throw invalidText(location, `${path ? `${path}.` : ''}${shown(key)} (a field name)`, keyProblem);
      if (FORBIDDEN_KEYS.has(key)) {
        throw badRequest('request/forbidden-key', `${keyPath}: "${key}" is not allowed as a field name; leave it out.`, { location, field: keyPath });
      }
      stack.push({ value: (v as Record<string, unknown>)[key], path: keyPath, depth: depth + 1 });
    }
  }
}

/**
 * Decodes each segment of a request path as routing will, and throws a 400 for a segment that is not valid
 * percent-encoded UTF-8 or that decodes to text that cannot be stored (path parameters become query values).
 */
export function assertStorablePath(path: string): void {
  const segments = path.split('/');
  for (const [i, raw] of segments.entries()) {
    if (!raw.includes('%')) {
      const problem = textProblem(raw);
      if (problem) throw invalidText('path', `path segment ${i}`, problem);
      continue;
    }
    let decoded: string;
    try {
      decoded = decodeURIComponent(raw);
    } catch {
      throw badRequest('request/invalid-path', `path segment ${i} (${shown(raw)}) is not valid percent-encoded UTF-8; encode the path as UTF-8.`, {
        location: 'path',
        field: `path segment ${i}`,
      });
    }
    const problem = textProblem(decoded);
    if (problem) throw invalidText('path', `path segment ${i} (${shown(decoded)})`, problem);
  }
}

/**
 * Express middleware: refuses a request whose path, query or parsed body holds text that cannot be stored, before
 * any handler runs. Bodies a route parses itself (raw webhook bodies) are that route's to check.
 */
export function storableTextGuard(req: Request, _res: Response, next: NextFunction): void {
  try {
    assertStorablePath(req.path);
    assertStorableValue(req.query, 'query');
    if (req.body !== undefined && !Buffer.isBuffer(req.body)) assertStorableValue(req.body, 'body');
    next();
  } catch (err) {
    next(err);
  }
}
