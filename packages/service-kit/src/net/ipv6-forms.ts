import { isIP } from 'node:net';

/*
 * IPv6 addresses that carry an IPv4 address. A packet sent to one can end up at that IPv4 address (the kernel, a
 * NAT64 gateway, a 6to4 or ISATAP relay delivers it there), so a destination check judges it by the IPv4 inside too.
 */

/** The eight 16-bit groups of an IPv6 address, or undefined when `text` is not one (a zone id such as %eth0 is not). */
export function ipv6Groups(text: string): number[] | undefined {
  if (isIP(text) !== 6 || text.includes('%')) return undefined;
  let hex = text.toLowerCase();
  // A dotted IPv4 tail (::ffff:127.0.0.1) is the last two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(hex);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    hex = `${hex.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const groupsOf = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const [head, tail] = hex.split('::') as [string, string | undefined];
  if (tail === undefined) return groupsOf(head);
  const before = groupsOf(head);
  const after = groupsOf(tail);
  return [...before, ...new Array<number>(8 - before.length - after.length).fill(0), ...after];
}

const dottedQuad = (high: number, low: number) => [high >> 8, high & 255, low >> 8, low & 255].join('.');
const allZero = (groups: number[]) => groups.every((g) => g === 0);

/**
 * The IPv4 address an IPv6 address carries, by its form, or undefined for any other address: IPv4-compatible (::/96,
 * but :: and ::1), IPv4-mapped (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96), NAT64 (64:ff9b::/96 and the
 * local-use 64:ff9b:1::/48, in the last 32 bits), 6to4 (2002::/16, bits 16-48) and ISATAP (interface id 0:5efe or
 * 200:5efe, any prefix). Teredo (2001::/32) carries two; it is left to the caller, which refuses it whole.
 */
export function ipv4Inside(groups: number[]): string | undefined {
  const [g0, g1, g2, , g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  const last32 = dottedQuad(g6, g7);
  const unspecifiedOrLoopback = g6 === 0 && g7 <= 1;
  if (allZero(groups.slice(0, 5)) && ((g5 === 0 && !unspecifiedOrLoopback) || g5 === 0xffff)) return last32;
  if (allZero(groups.slice(0, 4)) && g4 === 0xffff && g5 === 0) return last32;
  if (g0 === 0x64 && g1 === 0xff9b && (allZero(groups.slice(2, 6)) || g2 === 1)) return last32;
  if (g0 === 0x2002) return dottedQuad(g1, g2);
  if ((g4 & 0xfdff) === 0 && g5 === 0x5efe) return last32;
  return undefined;
}
