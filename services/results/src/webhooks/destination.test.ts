import { describe, expect, it } from 'vitest';
import { checkDestination, isForbiddenAddress, RefusedDestination } from './destination.js';

// Where a webhook may point, under the production policy (no local hosts). Names resolve through this machine's DNS.
const production = { localHosts: [], appUrl: 'https://frametext.example' };
const development = { localHosts: ['localhost', '127.0.0.1'], appUrl: 'http://localhost:8080' };

describe('webhook destinations', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '100.64.0.1',
    '169.254.169.254',
    '0.0.0.0',
    '224.0.0.251',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fd00::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:10.0.0.1',
    '64:ff9b::a9fe:a9fe',
  ])('forbids %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700::1111'])('allows the public address %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(false);
  });

  it.each([
    ['https://127.0.0.1/hook', 'private or reserved address (127.0.0.1)'],
    ['https://10.20.30.40/hook', 'private or reserved address (10.20.30.40)'],
    ['https://[::1]:8443/hook', 'private or reserved address (::1)'],
    ['https://localhost/hook', 'private or reserved address (127.0.0.1)'],
    ['https://169.254.169.254/latest/meta-data/', 'private or reserved address'],
    ['http://localhost/hook', 'must start with https://'],
  ])('refuses %s in production', async (url, reason) => {
    await expect(checkDestination(url, production)).rejects.toThrow(reason);
  });

  it('refuses a public address over http, and the product itself', async () => {
    await expect(checkDestination('http://93.184.216.34/hook', production)).rejects.toBeInstanceOf(RefusedDestination);
    await expect(checkDestination('https://93.184.216.34/hook', { ...production, appUrl: 'https://93.184.216.34' })).rejects.toThrow("FrameText's own address");
  });

  it('answers the address it checked, for the connection to use', async () => {
    await expect(checkDestination('https://93.184.216.34:8443/hook', production)).resolves.toMatchObject({ address: '93.184.216.34', family: 4 });
  });

  it('allows the configured loopback names over http in development, and nothing else private', async () => {
    await expect(checkDestination('http://127.0.0.1:9000/hook', development)).resolves.toMatchObject({ address: '127.0.0.1' });
    await expect(checkDestination('http://localhost:9000/hook', development)).resolves.toMatchObject({ url: expect.any(URL) });
    await expect(checkDestination('http://10.0.0.1/hook', development)).rejects.toThrow('must start with https://');
    await expect(checkDestination('https://10.0.0.1/hook', development)).rejects.toThrow('private or reserved');
  });
});
