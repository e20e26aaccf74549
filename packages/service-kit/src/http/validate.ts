import type { z } from 'zod';
import { badRequest } from '../errors/index.js';

/** Parses a request part with its contract schema; a mismatch is a 400 that names the field to fix. */
export function parseBody<S extends z.ZodType>(schema: S, value: unknown, code = 'request/invalid-body'): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issues = result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  const first = issues[0]!;
  const where = first.path ? `${first.path}: ` : '';
  throw badRequest(code, `${where}${first.message}`, { issues });
}
