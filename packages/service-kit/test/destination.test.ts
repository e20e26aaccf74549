import { describe, expect, it } from 'vitest';
import { checkDestination, isForbiddenAddress, refusedAddress, RefusedDestination, type HostResolver } from '../src/net/destination.js';

// Where a webhook may point, under the production policy (no local hosts). Names resolve through this machine's DNS.
const production = { purpose: 'webhooks', localHosts: [], appUrl: 'https://frametext.example' };
const development = { purpose: 'webhooks', localHosts: ['localhost', '127.0.0.1'], appUrl: 'http://localhost:8080' };

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

  // Every IPv6 form that carries an IPv4 address is judged by it, whichever way it is written.
  it.each([
    ['IPv4-compatible', '::127.0.0.1', '127.0.0.1'],
    ['IPv4-compatible', '::7f00:1', '127.0.0.1'],
    ['IPv4-compatible', '0:0:0:0:0:0:a00:1', '10.0.0.1'],
    ['IPv4-mapped', '::ffff:127.0.0.1', '127.0.0.1'],
    ['IPv4-mapped', '::FFFF:A9FE:A9FE', '169.254.169.254'],
    ['IPv4-translated', '::ffff:0:127.0.0.1', '127.0.0.1'],
    ['IPv4-translated', '::ffff:0:c0a8:101', '192.168.1.1'],
    ['6to4', '2002:7f00:1::', '127.0.0.1'],
    ['6to4', '2002:a9fe:a9fe:1234::1', '169.254.169.254'],
    ['NAT64', '64:ff9b::127.0.0.1', '127.0.0.1'],
    ['NAT64', '64:ff9b::a00:1', '10.0.0.1'],
    ['ISATAP', '2606:4700::5efe:7f00:1', '127.0.0.1'],
    ['ISATAP', '2606:4700::200:5efe:a00:1', '10.0.0.1'],
  ])('forbids the %s address %s, which carries %s', (_form, address, carried) => {
    expect(refusedAddress(address)).toBe(`${address}, which carries ${carried}`);
  });

  it.each([
    // Teredo is refused whole, even when its server and client addresses (8.8.8.8, 8.8.4.4) are public.
    ['Teredo', '2001:0:808:808::f7f7:fbfb'],
    ['Teredo', '2001:0:7f00:1:0:0:80ff:fffe'],
    // Local-use NAT64 is refused whole: its operator chooses where the IPv4 address sits.
    ['local-use NAT64', '64:ff9b:1::808:808'],
    ['local-use NAT64', '64:ff9b:1:7f00:1::'],
    ['a zone id', 'fe80::1%eth0'],
  ])('forbids any %s address (%s)', (_form, address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['93.184.216.34', '8.8.8.8', '2606:4700::1111', '::ffff:8.8.8.8', '2002:808:808::1', '64:ff9b::808:808', '2606:4700::5efe:808:808'])(
    'allows the public address %s',
    (address) => {
      expect(isForbiddenAddress(address)).toBe(false);
    },
  );

  it.each([
    ['https://127.0.0.1/hook', 'private or reserved address (127.0.0.1)'],
    ['https://10.20.30.40/hook', 'private or reserved address (10.20.30.40)'],
    ['https://[::1]:8443/hook', 'private or reserved address (::1)'],
    ['https://localhost/hook', 'private or reserved address (127.0.0.1)'],
    ['https://169.254.169.254/latest/meta-data/', 'private or reserved address'],
    ['http://localhost/hook', 'must start with https://'],
    ['https://[::127.0.0.1]/hook', 'private or reserved address (::7f00:1, which carries 127.0.0.1)'],
    ['https://[::ffff:0:127.0.0.1]/hook', 'private or reserved address (::ffff:0:7f00:1, which carries 127.0.0.1)'],
    ['https://[2002:7f00:1::]/hook', 'private or reserved address (2002:7f00:1::, which carries 127.0.0.1)'],
    ['https://[2001:0:808:808::f7f7:fbfb]/hook', 'private or reserved address (2001:0:808:808::f7f7:fbfb)'],
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

  it('checks every address a name resolves to, whatever their order', async () => {
    const twoFaced: HostResolver = async (host) => (host === 'two-faced.example' ? [{ address: '93.184.216.34' }, { address: '::ffff:7f00:1' }] : []);
    await expect(checkDestination('https://two-faced.example/hook', { ...production, resolve: twoFaced })).rejects.toThrow(
      'two-faced.example points at a private or reserved address (::ffff:7f00:1, which carries 127.0.0.1)',
    );
  });

  it('asks DNS once per check and answers the first address it vetted', async () => {
    const asked: string[] = [];
    const rebinding: HostResolver = async (host) => {
      asked.push(host);
      if (host !== 'rebinding.example') throw new Error('no such name');
      return [{ address: asked.filter((h) => h === host).length === 1 ? '93.184.216.34' : '127.0.0.1' }];
    };
    await expect(checkDestination('https://rebinding.example/hook', { ...production, resolve: rebinding })).resolves.toMatchObject({ address: '93.184.216.34', family: 4 });
    expect(asked.filter((h) => h === 'rebinding.example')).toEqual(['rebinding.example']);
  });

  it('allows the configured loopback names over http in development, and nothing else private', async () => {
    await expect(checkDestination('http://127.0.0.1:9000/hook', development)).resolves.toMatchObject({ address: '127.0.0.1' });
    await expect(checkDestination('http://localhost:9000/hook', development)).resolves.toMatchObject({ url: expect.any(URL) });
    await expect(checkDestination('http://10.0.0.1/hook', development)).rejects.toThrow('must start with https://');
    await expect(checkDestination('https://10.0.0.1/hook', development)).rejects.toThrow('private or reserved');
  });
});
