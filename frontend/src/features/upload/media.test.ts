import { describe, expect, it } from 'vitest';
import { isVideoContainer } from './media';

/** The first box of a file: a 4-byte big-endian size, then its 4-letter type. */
const box = (type: string) => new Uint8Array([0, 0, 0, 24, ...Array.from(type, (c) => c.charCodeAt(0)), 0x69, 0x73, 0x6f, 0x6d]);

describe('isVideoContainer', () => {
  it.each(['ftyp', 'moov', 'mdat', 'wide'])('takes a file opening with a %s box for MP4 or QuickTime', async (type) => {
    expect(await isVideoContainer(new Blob([box(type)]))).toBe(true);
  });

  it.each([
    ['text', new Blob(['Meeting notes, not a video.'])],
    ['a PNG', new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])])],
    ['an empty file', new Blob([])],
  ])('refuses %s, whatever its name', async (_what, blob) => {
    expect(await isVideoContainer(blob)).toBe(false);
  });
});
