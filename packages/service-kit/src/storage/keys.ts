import { AppError } from '../errors/index.js';

const MAX_KEY_LENGTH = 1024;

/**
 * Object keys are relative slash-separated paths. The fs driver maps them onto the disk, so anything that could
 * step outside its root (`..`, an absolute path, a backslash, an empty segment) is refused; the s3 driver applies
 * the same rule so that both drivers accept exactly the same keys.
 */
export function assertValidKey(key: string): void {
  const problem = keyProblem(key);
  if (problem) throw new AppError(400, 'storage/invalid-key', `Invalid object key "${key.slice(0, 200)}": ${problem}.`);
}

function keyProblem(key: string): string | undefined {
  if (typeof key !== 'string' || key.length === 0) return 'it is empty';
  if (key.length > MAX_KEY_LENGTH) return `it is longer than ${MAX_KEY_LENGTH} characters`;
  if (key.startsWith('/')) return 'it must not start with a slash';
  if (key.includes('\\')) return 'it must not contain a backslash';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(key)) return 'it must not contain control characters';
  for (const segment of key.split('/')) {
    if (segment === '') return 'it must not contain empty segments';
    if (segment === '.' || segment === '..') return 'it must not contain "." or ".." segments';
  }
  return undefined;
}

/**
 * A folder prefix for list/deletePrefix: a valid key with an optional trailing slash, answered with the slash,
 * so that `uploads/ab` never matches `uploads/abc/...`.
 */
export function folderPrefix(prefix: string): string {
  const bare = typeof prefix === 'string' ? prefix.replace(/\/$/, '') : prefix;
  assertValidKey(bare);
  return `${bare}/`;
}

/** `uploads/a b/x.jpg` -> `uploads/a%20b/x.jpg`: each segment escaped, slashes kept. */
export function encodeKeyPath(key: string): string {
  return key.split('/').map(encodeURIComponent).join('/');
}

/** The inverse of encodeKeyPath; undefined when the path is not valid percent-encoding. */
export function decodeKeyPath(path: string): string | undefined {
  try {
    return path.split('/').map(decodeURIComponent).join('/');
  } catch {
    return undefined;
  }
}
