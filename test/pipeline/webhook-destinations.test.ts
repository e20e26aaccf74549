// The webhook address check let IPv6 forms that carry a private or loopback IPv4 address through
// (IPv4-compatible, translated, 6to4, Teredo). Through the gateway, as a person registers a webhook, each is refused
// with a reason that names the IPv4 address it carries; a form that carries a public address is not.
import { beforeAll, describe, expect, it } from 'vitest';
import { useStack } from '../support/use-stack.js';

const stack = useStack();
let token: string;

beforeAll(async () => {
  ({ token } = await stack.signUp());
});

describe('a webhook address written as IPv6', () => {
  it.each([
    ['https://[::127.0.0.1]/hook', '127.0.0.1'],
    ['https://[::7f00:1]/hook', '127.0.0.1'],
    ['https://[::ffff:127.0.0.1]/hook', '127.0.0.1'],
    ['https://[::ffff:0:127.0.0.1]/hook', '127.0.0.1'],
    ['https://[2002:7f00:1::]/hook', '127.0.0.1'],
    ['https://[2002:a9fe:a9fe::1]/hook', '169.254.169.254'],
    ['https://[64:ff9b::10.0.0.1]/hook', '10.0.0.1'],
  ])('%s is refused: it carries %s', async (url, carried) => {
    const res = await stack.api('POST', '/webhooks', { url }, token);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe('webhooks/refused-url');
    expect(res.body.error.message).toContain(carried);
  });

  it('Teredo is refused whatever it carries (a relay the network picks carries it)', async () => {
    const res = await stack.api('POST', '/webhooks', { url: 'https://[2001:0:808:808::f7f7:fbfb]/hook' }, token);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('webhooks/refused-url');
  });

  it('is registered when what it carries is public (6to4 of 8.8.8.8)', async () => {
    const res = await stack.api('POST', '/webhooks', { url: 'https://[2002:808:808::1]/hook' }, token);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  });
});
