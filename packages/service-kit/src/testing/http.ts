import http from 'node:http';
import { connect } from 'node:net';

// Tests read answer bodies field by field and let their assertions say what is wrong.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Body = any;

/** An HTTP answer as tests look at it: the status, the parsed JSON body (or the text), the headers. */
export interface Answer {
  status: number;
  body: Body;
  headers: Headers;
}

export async function toAnswer(res: Response): Promise<Answer> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: the text itself.
  }
  return { status: res.status, body, headers: res.headers };
}

/** Sends a request with node:http (fetch cannot stream a chunked body of our choosing or set Content-Length). */
export function rawRequest(
  url: string,
  opts: { method: string; headers?: Record<string, string>; chunks?: Buffer[]; pauseMs?: number },
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: opts.method, headers: opts.headers, agent: false }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (c: Buffer) => parts.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts).toString() }));
      res.on('error', reject);
    });
    // The server may answer (413, 408) and close before the whole body is written; the answer is what counts.
    req.on('error', (err) => setTimeout(() => reject(err), 200));
    const write = async () => {
      for (const c of opts.chunks ?? []) {
        if (req.destroyed) return;
        if (!req.write(c)) await new Promise((r) => req.once('drain', r));
        if (opts.pauseMs) await new Promise((r) => setTimeout(r, opts.pauseMs));
      }
      if (!req.destroyed) req.end();
    };
    void write();
  });
}

/** An answer read off a raw socket: the status line's code, the headers (lower-case names) and the body text. */
export interface SocketAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Writes bytes to a server as they are (malformed HTTP, NUL in a header, a body shorter than its Content-Length)
 * and reads the first answer. With `end`, the client half-closes after writing; without it, the connection stays
 * open, as a stalled client's does, until the server answers.
 */
export function socketRequest(baseUrl: string, bytes: (string | Buffer)[], opts: { end?: boolean } = {}): Promise<SocketAnswer> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname);
    const parts: Buffer[] = [];
    let done = false;
    const finish = () => {
      if (done) return;
      const answer = parseAnswer(Buffer.concat(parts));
      if (!answer) return;
      done = true;
      socket.destroy();
      resolve(answer);
    };
    socket.on('data', (chunk: Buffer) => {
      parts.push(chunk);
      finish();
    });
    socket.on('close', () => {
      finish();
      if (!done) reject(new Error(`the connection closed without a complete answer: ${JSON.stringify(Buffer.concat(parts).toString('latin1').slice(0, 200))}`));
    });
    socket.on('error', () => undefined);
    socket.on('connect', () => {
      for (const b of bytes) socket.write(b);
      if (opts.end) socket.end();
    });
  });
}

/** The first complete HTTP answer in `raw` (a Content-Length or chunked body), or undefined while it is still arriving. */
function parseAnswer(raw: Buffer): SocketAnswer | undefined {
  const split = raw.indexOf('\r\n\r\n');
  if (split < 0) return undefined;
  const [statusLine, ...lines] = raw.subarray(0, split).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  const rest = raw.subarray(split + 4);
  const status = Number(statusLine?.split(' ')[1]);
  if (headers['transfer-encoding']?.toLowerCase() === 'chunked') {
    const body = dechunk(rest);
    return body === undefined ? undefined : { status, headers, body: body.toString('utf8') };
  }
  const length = headers['content-length'] === undefined ? 0 : Number(headers['content-length']);
  if (rest.length < length) return undefined;
  return { status, headers, body: rest.subarray(0, length).toString('utf8') };
}

/** The body of a chunked message, or undefined until its last chunk has arrived. */
function dechunk(raw: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = raw.indexOf('\r\n', at);
    if (eol < 0) return undefined;
    const size = parseInt(raw.subarray(at, eol).toString('latin1'), 16);
    if (Number.isNaN(size)) return Buffer.concat(parts);
    if (size === 0) return Buffer.concat(parts);
    if (raw.length < eol + 2 + size + 2) return undefined;
    parts.push(raw.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

/**
 * The value of one sample in Prometheus' text format: the line of metric `name` whose labels include `labels`
 * (in any order). NaN when there is none.
 */
export function sampleOf(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = Object.fromEntries([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(match[3]);
  }
  return Number.NaN;
}
