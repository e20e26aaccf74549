import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: IncomingMessage['headers'];
  body: string;
}

/** What the receiver answers the n-th request (0-based); `hold` keeps it unanswered until the server closes. */
export type Script = (n: number, req: Received) => { status: number; body?: string } | 'hold';

/**
 * A webhook receiver on 127.0.0.1, as a customer would run one: it records every request and answers by `script`
 * (200 "ok" unless told otherwise).
 */
export async function startReceiver(script: Script = () => ({ status: 200, body: 'ok' })) {
  const received: Received[] = [];
  const held: ServerResponse[] = [];
  // Connections are counted apart from requests: a TLS handshake on this plain-http port is a connection, never a request.
  let connections = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const r = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      const answer = script(received.length, r);
      received.push(r);
      if (answer === 'hold') return void held.push(res);
      res.writeHead(answer.status, { 'content-type': 'text/plain' }).end(answer.body ?? '');
    });
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/frametext`,
    port,
    received,
    /** Connections made to the receiver, whatever came over them. */
    get connections() {
      return connections;
    },
    async close() {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * The check docs/webhooks.md tells receivers to make, written independently of results' own code: the HMAC-SHA256 of
 * "<t>.<body>" under the secret, compared in constant time, with a recent timestamp.
 */
export function signatureIsValid(secret: string, r: Received, toleranceSeconds = 300): boolean {
  const header = String(r.headers['frametext-signature'] ?? '');
  const t = /(?:^|,)t=(\d+)/.exec(header)?.[1];
  const v1 = /(?:^|,)v1=([0-9a-f]{64})/.exec(header)?.[1];
  if (!t || !v1 || Math.abs(Date.now() / 1000 - Number(t)) > toleranceSeconds) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${r.body}`).digest();
  return timingSafeEqual(expected, Buffer.from(v1, 'hex'));
}
