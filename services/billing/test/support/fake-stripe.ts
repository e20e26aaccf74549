import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake API received: its form fields flattened as Stripe's SDK encodes them (`metadata[userId]`). */
export interface ReceivedRequest {
  method: string;
  path: string;
  apiKey: string | undefined;
  idempotencyKey: string | undefined;
  form: Record<string, string>;
}

export interface FakeStripe {
  /** The address to give the SDK (STRIPE_API_URL). */
  url: string;
  requests: ReceivedRequest[];
  /** Sessions made, by id, as answered. */
  sessions: Map<string, Record<string, unknown>>;
  /** Answer the next N session creations with this status (Stripe having a bad moment). */
  failNext(times: number, status?: number): void;
  close(): Promise<void>;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });

/** The `metadata[...]` fields of a flattened form as an object. */
function nested(form: Record<string, string>, prefix: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(form)) {
    const m = new RegExp(`^${prefix.replace(/[[\]]/g, '\\$&')}\\[([^\\]]+)\\]$`).exec(k);
    if (m) out[m[1]!] = v;
  }
  return out;
}

/**
 * A local HTTP server that speaks enough of Stripe's API for the SDK to create Checkout sessions:
 * POST /v1/checkout/sessions with a form-encoded body and a Bearer key, answering a session object with an
 * id and a url. Like Stripe, a repeated Idempotency-Key answers the first response again.
 */
export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: ReceivedRequest[] = [];
  const sessions = new Map<string, Record<string, unknown>>();
  const byKey = new Map<string, { status: number; body: unknown }>();
  let failures = { times: 0, status: 500 };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const text = await readBody(req);
      const form = Object.fromEntries(new URLSearchParams(text));
      const apiKey = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
      const path = (req.url ?? '').split('?')[0]!;
      requests.push({ method: req.method ?? '', path, apiKey, idempotencyKey, form });

      const answer = (status: number, body: unknown, replayed = false) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${randomBytes(6).toString('hex')}`, ...(replayed ? { 'idempotent-replayed': 'true' } : {}) });
        res.end(JSON.stringify(body));
      };

      if (!apiKey?.startsWith('sk_test_')) return answer(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      if (req.method !== 'POST' || path !== '/v1/checkout/sessions') return answer(404, { error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${path})` } });
      if (failures.times > 0) {
        failures.times -= 1;
        return answer(failures.status, { error: { type: 'api_error', message: 'Something went wrong on Stripe’s end.' } });
      }
      const earlier = idempotencyKey ? byKey.get(idempotencyKey) : undefined;
      if (earlier) return answer(earlier.status, earlier.body, true);

      const id = `cs_test_${randomBytes(16).toString('hex')}`;
      const session = {
        id,
        object: 'checkout.session',
        mode: form.mode,
        status: 'open',
        payment_status: 'unpaid',
        amount_total: Number(form['line_items[0][price_data][unit_amount]']) * Number(form['line_items[0][quantity]'] ?? 1),
        currency: form['line_items[0][price_data][currency]'],
        client_reference_id: form.client_reference_id ?? null,
        metadata: nested(form, 'metadata'),
        success_url: form.success_url,
        cancel_url: form.cancel_url,
        payment_intent: null,
        url: `https://checkout.stripe.com/c/pay/${id}`,
        livemode: false,
        created: Math.floor(Date.now() / 1000),
      };
      sessions.set(id, session);
      if (idempotencyKey) byKey.set(idempotencyKey, { status: 200, body: session });
      answer(200, session);
    })().catch((err: unknown) => {
      res.writeHead(500).end(String(err));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    sessions,
    failNext(times, status = 500) {
      failures = { times, status };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
