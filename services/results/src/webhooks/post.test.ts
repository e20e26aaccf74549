import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../../test/support/receiver.js';
import { postJson } from './post.js';

// The POST goes to the address the destination check vetted, never to what the name resolves to at that moment.
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  receiver = await startReceiver(() => ({ status: 200, body: 'ok' }));
});
afterAll(async () => {
  await receiver?.close();
});

describe('posting to a vetted destination', () => {
  it('connects to the vetted address without asking DNS, and keeps the host name in the Host header', async () => {
    // A name that resolves nowhere (.invalid): the request arrives only because no lookup is made.
    const url = new URL(`http://hooks.rebinding.invalid:${receiver.port}/hooks/frametext`);
    const outcome = await postJson({ url, address: '127.0.0.1', family: 4 }, '{"ping":true}', {}, 5000);
    expect(outcome).toMatchObject({ status: 200, excerpt: 'ok' });
    expect(receiver.received).toHaveLength(1);
    expect(receiver.received[0]!.headers.host).toBe(`hooks.rebinding.invalid:${receiver.port}`);
    expect(receiver.received[0]!.body).toBe('{"ping":true}');
  });
});
