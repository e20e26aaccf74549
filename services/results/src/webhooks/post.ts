import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedDestination } from '@frametext/service-kit';

/** The most of a receiver's answer that is read and kept (the rest is dropped unread). */
export const EXCERPT_BYTES = 512;

export interface PostOutcome {
  /** The answer's HTTP status; null when none came (refused, timed out, connection failed). */
  status: number | null;
  /** The start of the answer's body, or why there was no answer. */
  excerpt: string;
  durationMs: number;
}

/**
 * POSTs `body` to a checked destination, connecting to the address that was checked (not to whatever the name
 * resolves to a moment later) while TLS still verifies the certificate against the host name. Follows no redirect
 * (a 3xx is an answer like any other), gives up after `timeoutMs` in all, and reads at most EXCERPT_BYTES of the
 * answer. Never throws.
 */
export function postJson(dest: CheckedDestination, body: string, headers: Record<string, string>, timeoutMs: number): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const pinned: LookupFunction = (_host, options, callback) => {
    if (options.all) (callback as (err: null, addresses: { address: string; family: number }[]) => void)(null, [{ address: dest.address, family: dest.family }]);
    else callback(null, dest.address, dest.family);
  };
  const client = dest.url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<PostOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.destroy();
      resolve({ ...outcome, durationMs: elapsed() });
    };
    const req = client.request(
      dest.url,
      {
        method: 'POST',
        lookup: pinned,
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), 'user-agent': 'FrameText-Webhooks/1', ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => finish({ status: res.statusCode ?? null, excerpt: Buffer.concat(chunks).subarray(0, EXCERPT_BYTES).toString('utf8') });
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          if (size >= EXCERPT_BYTES) done();
        });
        res.on('end', done);
        res.on('error', done);
      },
    );
    const timer = setTimeout(() => finish({ status: null, excerpt: `no answer within ${timeoutMs} ms` }), timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => finish({ status: null, excerpt: `could not connect: ${err.code ?? err.message}` }));
    req.end(body);
  });
}
