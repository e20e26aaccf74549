import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { webhookEventSchema } from '@frametext/contracts';
import { RUN_TYPESCRIPT_SOURCES, TEST_DATABASE_URL } from '@frametext/service-kit/testing';
import { claimDueDeliveries, insertDelivery } from '../src/data/webhooks.js';
import { deliverDueWebhooks } from '../src/domain/webhooks.js';
import { completed, extracted } from './fixtures.js';
import { startResults, type TestResults } from './helpers.js';
import { signatureIsValid, startReceiver } from './support/receiver.js';
import { ScriptedDns } from './support/scripted-dns.js';

// Webhooks against real receivers (local HTTP servers). The tests run the delivery loop's passes themselves, with a
// clock they choose instead of waiting for backoff.
let results: TestResults;
/** The service's DNS: names a test scripts answer what it says; every other name resolves as usual. */
const dns = new ScriptedDns();
/** A public address (example.com's): the scripted names answer it where they are to pass the check. */
const PUBLIC = '93.184.216.34';
const ENV = { WEBHOOK_LOCAL_HOSTS: '127.0.0.1', WEBHOOK_INTERVAL_MS: '3600000', WEBHOOK_RETRY_BASE_MS: '50', WEBHOOK_TIMEOUT_MS: '1000' };
let n = 0;
const newUser = () => `webhook-user-${Date.now()}-${(n += 1)}`;
const later = (ms: number) => ({ now: () => new Date(Date.now() + ms) });

beforeAll(async () => {
  results = await startResults(ENV, { resolveHost: dns.resolve });
});
afterAll(async () => {
  await results?.stop();
});
// A receiver's port may be a closed receiver's again: no delivery of an earlier test may reach a later one.
afterEach(async () => {
  await results.db('webhooks').delete();
});

async function register(user: string, url: string) {
  const res = await results.post('/api/webhooks', { url }, user);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body as { webhook: { id: string }; secret: string };
}

describe('registering a webhook', () => {
  it('shows the signing secret once, lists the webhook without it, and deletes it', async () => {
    const user = newUser();
    const { webhook, secret } = await register(user, 'http://127.0.0.1:9/hook');
    expect(secret).toMatch(/^whsec_[\w-]{40,}$/);
    const listed = await results.get('/api/webhooks', user);
    expect(listed.body.webhooks).toEqual([{ id: webhook.id, url: 'http://127.0.0.1:9/hook', createdAt: expect.any(String) }]);
    expect(JSON.stringify(listed.body)).not.toContain(secret);
    // Someone else's id is not found, and neither is a deleted one.
    expect((await results.service.request('DELETE', `/api/webhooks/${webhook.id}`, { user: newUser() })).status).toBe(404);
    expect((await results.service.request('DELETE', `/api/webhooks/${webhook.id}`, { user })).status).toBe(204);
    expect((await results.service.request('DELETE', `/api/webhooks/${webhook.id}`, { user })).status).toBe(404);
    expect((await results.get('/api/webhooks', user)).body.webhooks).toEqual([]);
  });

  it.each([
    ['https://10.1.2.3/hook', 'private or reserved address (10.1.2.3)'],
    ['https://[::1]/hook', 'private or reserved address (::1)'],
    // A name that resolves to loopback (localhost is not on this service's list of local hosts; 127.0.0.1 is).
    ['https://localhost/hook', 'private or reserved address (127.0.0.1)'],
    ['https://169.254.169.254/latest/meta-data', 'private or reserved address (169.254.169.254)'],
    ['http://example.com/hook', 'must start with https://'],
    ['https://user:pw@example.com/hook', 'user name or password'],
    ['https://does-not-exist.invalid/hook', 'does not resolve'],
    ['not a url', 'full URL'],
  ])('refuses %s with a 400 that says why', async (url, reason) => {
    const res = await results.post('/api/webhooks', { url }, newUser());
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(reason);
  });

  it.each([
    ['not a url', 'The address must be a full URL, such as https://example.com/frametext.'],
    ['   ', 'Enter the address your events should go to, such as https://example.com/frametext.'],
    [42, 'Enter the address your events should go to, such as https://example.com/frametext.'],
    ['http://example.com/hook', 'The address must start with https://.'],
  ])('says why %s is refused in a sentence, with no field name in front', async (url, sentence) => {
    const res = await results.post('/api/webhooks', { url }, newUser());
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(sentence);
  });

  // Each IPv6 form that carries an IPv4 address, written in the URL, is judged by that IPv4 address.
  it.each([
    ['IPv4-compatible', 'https://[::127.0.0.1]/hook', '(::7f00:1, which carries 127.0.0.1)'],
    ['IPv4-compatible, in hex', 'https://[::7f00:1]/hook', '(::7f00:1, which carries 127.0.0.1)'],
    ['IPv4-mapped', 'https://[::ffff:127.0.0.1]/hook', '(::ffff:7f00:1, which carries 127.0.0.1)'],
    ['IPv4-translated', 'https://[::ffff:0:127.0.0.1]/hook', '(::ffff:0:7f00:1, which carries 127.0.0.1)'],
    ['6to4', 'https://[2002:7f00:1::]/hook', '(2002:7f00:1::, which carries 127.0.0.1)'],
    ['6to4 to the metadata service', 'https://[2002:a9fe:a9fe::1]/hook', '(2002:a9fe:a9fe::1, which carries 169.254.169.254)'],
    ['Teredo (refused whole)', 'https://[2001:0:808:808::f7f7:fbfb]/hook', '(2001:0:808:808::f7f7:fbfb)'],
    ['NAT64', 'https://[64:ff9b::127.0.0.1]/hook', '(64:ff9b::7f00:1, which carries 127.0.0.1)'],
    ['local-use NAT64 (refused whole)', 'https://[64:ff9b:1::808:808]/hook', '(64:ff9b:1::808:808)'],
    ['ISATAP', 'https://[2606:4700::5efe:7f00:1]/hook', '(2606:4700::5efe:7f00:1, which carries 127.0.0.1)'],
  ])('refuses an %s address with a 400 that names it', async (_form, url, named) => {
    const res = await results.post('/api/webhooks', { url }, newUser());
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'webhooks/refused-url', message: expect.stringContaining(`private or reserved address ${named}`) });
  });

  it('refuses a name that resolves to a public address and, after it, to 127.0.0.1 in its IPv6 form', async () => {
    dns.script('two-faced.test', [PUBLIC, '::ffff:127.0.0.1']);
    const res = await results.post('/api/webhooks', { url: 'https://two-faced.test/hook' }, newUser());
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe('two-faced.test points at a private or reserved address (::ffff:127.0.0.1, which carries 127.0.0.1); webhooks go to public addresses only.');
  });

  it('allows a few webhooks per person, and needs a signed-in person', async () => {
    const user = newUser();
    for (let i = 0; i < 5; i += 1) await register(user, `http://127.0.0.1:9/hook/${i}`);
    const sixth = await results.post('/api/webhooks', { url: 'http://127.0.0.1:9/hook/6' }, user);
    expect(sixth.status).toBe(409);
    expect(sixth.body.error.message).toContain('at most 5');
    expect((await results.get('/api/webhooks')).status).toBe(401);
  });
});

describe('delivering events', () => {
  it("takes people's deliveries in turns: one person's backlog does not hold another's delivery behind it", async () => {
    const busy = await register(newUser(), 'http://127.0.0.1:9/busy');
    const quiet = await register(newUser(), 'http://127.0.0.1:9/quiet');
    const due = new Date(Date.now() - 60_000);
    for (let i = 0; i < 30; i++) await insertDelivery(results.ctx.db, { id: crypto.randomUUID(), webhook_id: busy.webhook.id, event_id: crypto.randomUUID(), event_type: 'webhook.test', payload: '{}' });
    // The quiet person's delivery came due last of all.
    await insertDelivery(results.ctx.db, { id: crypto.randomUUID(), webhook_id: quiet.webhook.id, event_id: crypto.randomUUID(), event_type: 'webhook.test', payload: '{}' });
    await results.db('webhook_deliveries').whereIn('webhook_id', [busy.webhook.id]).update({ next_attempt_at: due });
    const claimed = await claimDueDeliveries(results.ctx.db, new Date(), new Date(Date.now() + 3_600_000), 5);
    expect(claimed).toHaveLength(5);
    expect(claimed.filter((d) => d.webhook_id === quiet.webhook.id)).toHaveLength(1);
  });

  it('POSTs a test event signed with the secret, and lists the answer', async () => {
    const receiver = await startReceiver(() => ({ status: 200, body: 'thanks' }));
    try {
      const user = newUser();
      const { webhook, secret } = await register(user, receiver.url);
      const queued = await results.post(`/api/webhooks/${webhook.id}/test`, {}, user);
      expect(queued.status).toBe(202);
      expect(queued.body.status).toBe('pending');
      await deliverDueWebhooks(results.ctx);
      expect(receiver.received).toHaveLength(1);
      const [got] = receiver.received;
      expect(signatureIsValid(secret, got!)).toBe(true);
      expect(signatureIsValid('whsec_someone-else', got!)).toBe(false);
      const event = webhookEventSchema.parse(JSON.parse(got!.body));
      expect(event).toMatchObject({ id: queued.body.eventId, type: 'webhook.test', data: null });
      expect(got!.headers['frametext-event-id']).toBe(event.id);
      const [delivery] = (await results.get('/api/webhooks', user)).body.deliveries;
      expect(delivery).toMatchObject({ eventId: event.id, status: 'delivered', attempts: 1, responseStatus: 200, responseExcerpt: 'thanks', nextAttemptAt: null });
    } finally {
      await receiver.close();
    }
  });

  it('tries again after a 500, with the same event id, until it is delivered', async () => {
    const receiver = await startReceiver((i) => (i === 0 ? { status: 500, body: 'down for a moment' } : { status: 204 }));
    try {
      const user = newUser();
      const { webhook, secret } = await register(user, receiver.url);
      await results.post(`/api/webhooks/${webhook.id}/test`, {}, user);
      await deliverDueWebhooks(results.ctx);
      let [delivery] = (await results.get('/api/webhooks', user)).body.deliveries;
      expect(delivery).toMatchObject({ status: 'pending', attempts: 1, responseStatus: 500, responseExcerpt: 'down for a moment' });
      // Not due again at once: the backoff holds it.
      expect(new Date(delivery.nextAttemptAt).getTime()).toBeGreaterThan(new Date(delivery.lastAttemptAt).getTime());
      await deliverDueWebhooks(results.ctx, later(60_000));
      [delivery] = (await results.get('/api/webhooks', user)).body.deliveries;
      expect(delivery).toMatchObject({ status: 'delivered', attempts: 2, responseStatus: 204 });
      expect(receiver.received.map((r) => r.headers['frametext-event-id'])).toEqual([delivery.eventId, delivery.eventId]);
      expect(receiver.received[0]!.body).toBe(receiver.received[1]!.body);
      expect(receiver.received.every((r) => signatureIsValid(secret, r))).toBe(true);
    } finally {
      await receiver.close();
    }
  });

  it('gives up a day after the event and shows the delivery as failed', async () => {
    const receiver = await startReceiver(() => ({ status: 503, body: 'x'.repeat(5000) }));
    try {
      const user = newUser();
      const { webhook } = await register(user, receiver.url);
      await results.post(`/api/webhooks/${webhook.id}/test`, {}, user);
      await deliverDueWebhooks(results.ctx, later(23 * 3_600_000));
      expect((await results.get('/api/webhooks', user)).body.deliveries[0]).toMatchObject({ status: 'pending', attempts: 1 });
      await deliverDueWebhooks(results.ctx, later(25 * 3_600_000));
      const [delivery] = (await results.get('/api/webhooks', user)).body.deliveries;
      expect(delivery).toMatchObject({ status: 'failed', attempts: 2, responseStatus: 503, nextAttemptAt: null });
      // The answer's body is kept short.
      expect(delivery.responseExcerpt.length).toBeLessThanOrEqual(512);
      await deliverDueWebhooks(results.ctx, later(48 * 3_600_000));
      expect(receiver.received).toHaveLength(2);
    } finally {
      await receiver.close();
    }
  });

  it('follows no redirect and cuts off a receiver that does not answer', async () => {
    const receiver = await startReceiver((i) => (i === 0 ? { status: 302, body: '' } : 'hold'));
    try {
      const user = newUser();
      const { webhook } = await register(user, receiver.url);
      await results.post(`/api/webhooks/${webhook.id}/test`, {}, user);
      await deliverDueWebhooks(results.ctx);
      expect((await results.get('/api/webhooks', user)).body.deliveries[0]).toMatchObject({ status: 'pending', responseStatus: 302 });
      expect(receiver.received).toHaveLength(1);
      const started = Date.now();
      await deliverDueWebhooks(results.ctx, later(60_000));
      expect(Date.now() - started).toBeLessThan(3000);
      expect((await results.get('/api/webhooks', user)).body.deliveries[0]).toMatchObject({ status: 'pending', attempts: 2, responseStatus: null, responseExcerpt: 'no answer within 1000 ms' });
    } finally {
      await receiver.close();
    }
  });

  it('checks the address again at delivery, and sends nothing where it may no longer go', async () => {
    const receiver = await startReceiver();
    try {
      const user = newUser();
      const { webhook } = await register(user, receiver.url);
      await results.post(`/api/webhooks/${webhook.id}/test`, {}, user);
      // As in production, where 127.0.0.1 is not a local host: what resolved to a public address at registration and
      // to loopback now (DNS rebinding) is refused the same way.
      const production = { ...results.ctx, config: { ...results.ctx.config, WEBHOOK_LOCAL_HOSTS: [] } };
      await deliverDueWebhooks(production);
      expect(receiver.received).toHaveLength(0);
      expect((await results.get('/api/webhooks', user)).body.deliveries[0]).toMatchObject({
        status: 'pending',
        responseStatus: null,
        // (Refused for its scheme first: plain http is for the local hosts only.)
        responseExcerpt: 'not sent: The address must start with https://.',
      });
    } finally {
      await receiver.close();
    }
  });

  it('asks DNS once per attempt and connects to the address it vetted, not to what the name answers next', async () => {
    // A receiver on 127.0.0.1, where the name points once it has been vetted (DNS rebinding between check and connect).
    const receiver = await startReceiver();
    try {
      dns.script('rebinding.test', [PUBLIC], [PUBLIC], ['127.0.0.1']);
      const user = newUser();
      const { webhook } = await register(user, `https://rebinding.test:${receiver.port}/hook`);
      expect(dns.asked('rebinding.test')).toBe(1);
      await results.post(`/api/webhooks/${webhook.id}/test`, {}, user);
      await deliverDueWebhooks(results.ctx);
      // One more question, at the attempt's check; the connection went to that answer, which is not the receiver.
      expect(dns.asked('rebinding.test')).toBe(2);
      expect(receiver.connections).toBe(0);
      expect((await results.get('/api/webhooks', user)).body.deliveries[0]).toMatchObject({ status: 'pending', attempts: 1, responseStatus: null });
    } finally {
      await receiver.close();
    }
  });

  it('sends nothing when the name answers 127.0.0.1 among its addresses at the attempt', async () => {
    const receiver = await startReceiver();
    try {
      dns.script('rebound.test', [PUBLIC], [PUBLIC, '127.0.0.1']);
      const user = newUser();
      const { webhook } = await register(user, `https://rebound.test:${receiver.port}/hook`);
      await results.post(`/api/webhooks/${webhook.id}/test`, {}, user);
      await deliverDueWebhooks(results.ctx);
      expect(receiver.connections).toBe(0);
      expect((await results.get('/api/webhooks', user)).body.deliveries[0]).toMatchObject({
        status: 'pending',
        responseStatus: null,
        responseExcerpt: 'not sent: rebound.test points at a private or reserved address (127.0.0.1); webhooks go to public addresses only.',
      });
    } finally {
      await receiver.close();
    }
  });

  it('sends a delivery again, with the same id, when the process sending it is killed mid-delivery', async () => {
    let release: () => void = () => {};
    const arrived = new Promise<void>((resolve) => (release = resolve));
    const receiver = await startReceiver((i) => {
      if (i === 0) {
        release();
        return 'hold';
      }
      return { status: 200, body: 'ok' };
    });
    try {
      const user = newUser();
      const { webhook, secret } = await register(user, receiver.url);
      await results.post(`/api/webhooks/${webhook.id}/test`, {}, user);
      const child = fork(fileURLToPath(new URL('./support/deliver-in-child.mjs', import.meta.url)), [TEST_DATABASE_URL, results.service.names.schema, JSON.stringify({ ...ENV, WEBHOOK_TIMEOUT_MS: '30000' })], {
        // The sources, without the test runner's own loader options.
        execArgv: RUN_TYPESCRIPT_SOURCES,
        stdio: 'inherit',
      });
      const exited = new Promise((resolve) => child.on('exit', resolve));
      await arrived;
      child.kill('SIGKILL');
      await exited;
      // The row is claimed, not lost: nothing sends it before its claim runs out (twice the child's 30 s timeout)...
      expect(await deliverDueWebhooks(results.ctx, later(10_000))).toBe(0);
      // ...and then it goes out again.
      await deliverDueWebhooks(results.ctx, later(61_000));
      expect(receiver.received).toHaveLength(2);
      expect(receiver.received[1]!.headers['frametext-event-id']).toBe(receiver.received[0]!.headers['frametext-event-id']);
      expect(receiver.received[1]!.body).toBe(receiver.received[0]!.body);
      expect(signatureIsValid(secret, receiver.received[1]!)).toBe(true);
      expect((await results.get('/api/webhooks', user)).body.deliveries[0]).toMatchObject({ status: 'delivered', attempts: 2 });
    } finally {
      await receiver.close();
    }
  });
});

describe('test events', () => {
  it('are capped per person: past 5 a minute, 429 with Retry-After and a message that says how long to wait', async () => {
    const user = newUser();
    const { webhook } = await register(user, 'http://127.0.0.1:9/hook');
    for (let i = 0; i < 5; i += 1) expect((await results.post(`/api/webhooks/${webhook.id}/test`, {}, user)).status).toBe(202);
    const refused = await results.post(`/api/webhooks/${webhook.id}/test`, {}, user);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.body.error).toEqual({
      code: 'webhooks/test-rate-limited',
      message: `You can send at most 5 test events a minute. Wait ${retryAfter} s and try again.`,
      details: { retryAfterSeconds: retryAfter },
      correlationId: expect.any(String),
    });
    // Nothing was queued for the refused one.
    expect((await results.get('/api/webhooks', user)).body.deliveries).toHaveLength(5);
  });

  it('count per person, not per webhook: adding the webhook again does not reset them, and others are not held back', async () => {
    const user = newUser();
    const first = await register(user, 'http://127.0.0.1:9/hook');
    for (let i = 0; i < 5; i += 1) expect((await results.post(`/api/webhooks/${first.webhook.id}/test`, {}, user)).status).toBe(202);
    expect((await results.service.request('DELETE', `/api/webhooks/${first.webhook.id}`, { user })).status).toBe(204);
    const again = await register(user, 'http://127.0.0.1:9/hook');
    expect((await results.post(`/api/webhooks/${again.webhook.id}/test`, {}, user)).status).toBe(429);
    const other = newUser();
    const theirs = await register(other, 'http://127.0.0.1:9/hook');
    expect((await results.post(`/api/webhooks/${theirs.webhook.id}/test`, {}, other)).status).toBe(202);
  });
});

describe('upload events', () => {
  it("sends upload.processed once to each of the owner's webhooks, without OCR text", async () => {
    const receiver = await startReceiver();
    try {
      const user = newUser();
      const { secret } = await register(user, receiver.url);
      const other = await startReceiver();
      await register(newUser(), other.url);
      const uploadId = await results.storedUpload(user, 2, 2);
      // The last event of the upload once more, as a redelivery would bring it: nothing new is queued.
      await results.deliver('upload.completed.v1', completed(uploadId, user, { maxFrames: 2 }));
      await deliverDueWebhooks(results.ctx);
      expect(receiver.received).toHaveLength(1);
      expect(other.received).toHaveLength(0);
      await other.close();
      expect(signatureIsValid(secret, receiver.received[0]!)).toBe(true);
      const event = webhookEventSchema.parse(JSON.parse(receiver.received[0]!.body));
      expect(event.type).toBe('upload.processed');
      expect(event.data).toEqual({
        uploadId,
        status: 'processed',
        mode: 'numerical',
        engine: 'server',
        kind: 'video',
        counts: { framesTotal: 2, framesProcessed: 2 },
        failureReason: null,
        resultsUrl: `http://localhost:8080/api/getUploadDetails/${uploadId}`,
      });
      expect(receiver.received[0]!.body).not.toContain('value 0');
    } finally {
      await receiver.close();
    }
  });

  it('sends upload.failed once however many services report the failure', async () => {
    const receiver = await startReceiver();
    try {
      const user = newUser();
      await register(user, receiver.url);
      const uploadId = `webhook-failed-${Date.now()}`;
      await results.deliver('upload.completed.v1', completed(uploadId, user));
      await results.deliver('frames.extracted.v1', extracted(uploadId, 3));
      await results.deliver('upload.failed.v1', { uploadId, userId: user, reason: 'The video could not be read.', stage: 'ocr' });
      await results.deliver('upload.failed.v1', { uploadId, userId: user, reason: 'Processing stopped.', stage: 'ocr' });
      await deliverDueWebhooks(results.ctx);
      expect(receiver.received).toHaveLength(1);
      const event = webhookEventSchema.parse(JSON.parse(receiver.received[0]!.body));
      expect(event).toMatchObject({ type: 'upload.failed', data: { uploadId, status: 'failed', failureReason: 'The video could not be read.', counts: { framesTotal: 3, framesProcessed: 0 } } });
    } finally {
      await receiver.close();
    }
  });

  it('forgets the deliveries about an upload its owner deletes (a failure can name a file), and only those', async () => {
    const receiver = await startReceiver();
    try {
      const user = newUser();
      await register(user, receiver.url);
      const failed = `webhook-deleted-${Date.now()}`;
      await results.deliver('upload.completed.v1', completed(failed, user));
      await results.deliver('upload.failed.v1', { uploadId: failed, userId: user, reason: 'holiday-notes.png is not a photo.', stage: 'upload' });
      const kept = await results.storedUpload(user, 2, 2);
      await deliverDueWebhooks(results.ctx);
      expect(receiver.received).toHaveLength(2);
      const about = (uploadId: string) => results.db('webhook_deliveries').whereRaw(`(payload::jsonb)->'data'->>'uploadId' = ?`, [uploadId]);
      expect(await about(failed)).toHaveLength(1);

      expect((await results.post('/api/deleteUploads', { uploads: [failed], deleteUploads: true }, user)).body.data.deleted).toEqual([failed]);

      expect(await about(failed)).toEqual([]);
      expect(await about(kept)).toHaveLength(1);
      expect(JSON.stringify(await results.get('/api/webhooks', user))).not.toContain('holiday-notes');
    } finally {
      await receiver.close();
    }
  });

  it('forgets the webhooks of a person who deleted their account', async () => {
    const user = newUser();
    await register(user, 'http://127.0.0.1:9/hook');
    await results.deliver('user.deleted.v1', { uid: '5f1d7a0e-2c4b-4a57-9a0e-1b2c3d4e5f60', deletedAt: new Date().toISOString() });
    expect(await results.db('webhooks').where({ user_id: user }).count()).toEqual([{ count: 1 }]);
    const uid = crypto.randomUUID();
    const { webhook } = await register(uid, 'http://127.0.0.1:9/hook');
    expect((await results.post(`/api/webhooks/${webhook.id}/test`, {}, uid)).status).toBe(202);
    await results.deliver('user.deleted.v1', { uid, deletedAt: new Date().toISOString() });
    expect(await results.db('webhooks').where({ user_id: uid }).count()).toEqual([{ count: 0 }]);
    // The record of their test events goes too.
    expect(await results.db('webhook_test_sends').where({ user_id: uid }).count()).toEqual([{ count: 0 }]);
  });
});
