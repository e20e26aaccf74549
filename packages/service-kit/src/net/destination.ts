import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { ipv4Inside, ipv6Groups } from './ipv6-forms.js';

/*
 * Where a request our servers make to an address a person chose may go (SSRF): webhooks (results) and videos by
 * link (upload). A URL is checked before every request: its host is resolved once, every address it resolves to is
 * checked, and the request connects to the first of those very addresses, never asking DNS again. A name that
 * resolves to a public address at one moment and to 127.0.0.1 later (DNS rebinding) is refused at that moment; one
 * that answers differently between the check and the connection is never asked the second time.
 */

/** Addresses no request to a person's address reaches: this machine, private networks, link-local (cloud metadata), shared, multicast, reserved. */
const FORBIDDEN = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // CGNAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, with the metadata service 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
] as const)
  FORBIDDEN.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  // Local-use NAT64: its operator chooses where the IPv4 address sits, so what it reaches cannot be told.
  ['64:ff9b:1::', 48],
  ['100::', 64],
  // Teredo: a relay the network picks carries it over IPv4 to a server and a client address; refused whole.
  ['2001::', 32],
  ['2001:2::', 48], // benchmarking
  ['2001:10::', 28], // ORCHID
  ['2001:db8::', 32],
  ['3fff::', 20], // documentation
  ['5f00::', 16], // SRv6 segment ids
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10],
  ['ff00::', 8], // multicast
] as const)
  FORBIDDEN.addSubnet(net, prefix, 'ipv6');

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

function isLoopback(address: string): boolean {
  const family = isIP(address);
  return family !== 0 && LOOPBACK.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** Every address a host name resolves to (DNS, /etc/hosts...); tests pass their own. */
export type HostResolver = (host: string) => Promise<{ address: string }[]>;

const systemResolver: HostResolver = (host) => lookup(host, { all: true, verbatim: true });

export interface DestinationPolicy {
  /** What goes there, as refusals name it: "webhooks", "video links". */
  purpose: string;
  /** Loopback host names allowed, over http too (WEBHOOK_LOCAL_HOSTS, VIDEO_LINK_LOCAL_HOSTS: development and tests only). */
  localHosts: readonly string[];
  /** The product's own address (APP_URL): nothing may call FrameText itself. */
  appUrl: string;
  /** Resolves host names; the system's resolver by default. */
  resolve?: HostResolver;
}

/** A URL that passed the checks, with the address to connect to. */
export interface CheckedDestination {
  url: URL;
  address: string;
  family: 4 | 6;
}

const OWN_ADDRESS = "The address must not point at FrameText's own address.";

/** Why an address is refused, as a sentence a person reads as it is (no field name in front). */
export class RefusedDestination extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RefusedDestination';
  }
}

function hostOf(url: URL): string {
  return url.hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
}

/**
 * What to name when refusing `address` (an IP literal): the address, with the IPv4 address it carries when that is
 * the reason; undefined when a request may reach it.
 */
export function refusedAddress(address: string): string | undefined {
  const family = isIP(address);
  if (family === 4) return FORBIDDEN.check(address, 'ipv4') ? address : undefined;
  const groups = family === 6 ? ipv6Groups(address) : undefined;
  if (!groups) return address;
  const carried = ipv4Inside(groups);
  if (carried !== undefined && FORBIDDEN.check(carried, 'ipv4')) return `${address}, which carries ${carried}`;
  return FORBIDDEN.check(address, 'ipv6') ? address : undefined;
}

/** Whether no request to a person's address may reach `address` (an IP literal). */
export function isForbiddenAddress(address: string): boolean {
  return refusedAddress(address) !== undefined;
}

async function resolve(host: string, resolver: HostResolver): Promise<{ address: string; family: 4 | 6 }[]> {
  if (isIP(host)) return [{ address: host, family: isIP(host) as 4 | 6 }];
  let answers: { address: string }[];
  try {
    answers = await resolver(host);
  } catch {
    throw new RefusedDestination(`${host} does not resolve to an address: check the spelling.`);
  }
  // The family is read from the address itself; an answer that is no address is refused below (family 0).
  return answers.map((a) => ({ address: a.address, family: isIP(a.address) as 4 | 6 }));
}

/**
 * The checks of a URL that need no network: a full URL of at most 2048 characters, https (or http to one of the
 * local hosts), no user name or password. Answers the parsed URL; throws RefusedDestination.
 */
export function checkUrlForm(raw: string, policy: Pick<DestinationPolicy, 'localHosts'>): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new RefusedDestination('The address must be a full URL, such as https://example.com/frametext.');
  }
  // What is stored is the normalised form (punycode, percent-encoding), which can be longer than what was typed.
  if (url.href.length > 2048) throw new RefusedDestination('The address is too long: at most 2048 characters.');
  const local = policy.localHosts.includes(hostOf(url));
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) throw new RefusedDestination('The address must start with https://.');
  if (url.username || url.password) throw new RefusedDestination('The address must not contain a user name or password.');
  return url;
}

/**
 * Checks a URL and resolves its host. Refuses (RefusedDestination, with a reason a person can act on) anything
 * but https, credentials in the URL, the product's own host, and a host of which any address is forbidden, unless the
 * host is one of the configured loopback names.
 */
export async function checkDestination(raw: string, policy: DestinationPolicy): Promise<CheckedDestination> {
  const url = checkUrlForm(raw, policy);
  const host = hostOf(url);
  const local = policy.localHosts.includes(host);
  const app = new URL(policy.appUrl);

  const resolver = policy.resolve ?? systemResolver;
  const addresses = await resolve(host, resolver);
  if (addresses.length === 0) throw new RefusedDestination(`${host} does not resolve to an address: check the spelling.`);
  if (!local) {
    const refused = addresses.map((a) => refusedAddress(a.address)).find((r) => r !== undefined);
    if (refused) throw new RefusedDestination(`${host} points at a private or reserved address (${refused}); ${policy.purpose} go to public addresses only.`);
    if (host === hostOf(app)) throw new RefusedDestination(OWN_ADDRESS);
    const own = isIP(hostOf(app)) ? [hostOf(app)] : await resolve(hostOf(app), resolver).then((a) => a.map((x) => x.address)).catch(() => []);
    if (addresses.some((a) => own.includes(a.address))) throw new RefusedDestination(OWN_ADDRESS);
  } else if (!addresses.every((a) => isLoopback(a.address))) {
    // A name on the local list that resolves somewhere else is a misconfiguration, not a loophole.
    throw new RefusedDestination(`${host} is listed as local but resolves to an address that is not loopback.`);
  }
  return { url, ...addresses[0]! };
}

const LOOPBACK_NAME = /^127\.\d+\.\d+\.\d+$/;

/**
 * A setting that lists loopback host names (localhost, 127.x.x.x, [::1]) requests may use, over plain http too:
 * comma-separated, brackets and case dropped. Nothing but loopback names is accepted.
 */
export function parseLocalHosts(value: string): string[] {
  return value
    .split(',')
    .map((h) => h.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1'))
    .filter(Boolean);
}

/** Whether every name of a parsed local-host list is a loopback name. */
export function onlyLoopbackNames(hosts: readonly string[]): boolean {
  return hosts.every((h) => ['localhost', '::1'].includes(h) || LOOPBACK_NAME.test(h));
}
