import { describe, expect, it } from 'vitest';
import { sniffMedia } from '../src/domain/media-sniff.js';

const box = (type: string) => Buffer.concat([Buffer.from([0, 0, 0, 0x20]), Buffer.from(type, 'latin1'), Buffer.alloc(4)]);

describe('sniffMedia', () => {
  it('knows MP4 and QuickTime by their first box', () => {
    for (const type of ['ftyp', 'moov', 'mdat', 'wide', 'free']) expect(sniffMedia(box(type))).toBe('iso-bmff');
  });

  it('knows PNG and JPEG by their signatures', () => {
    expect(sniffMedia(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]))).toBe('png');
    expect(sniffMedia(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]))).toBe('jpeg');
  });

  it('calls text, a short file and a near miss unknown', () => {
    expect(sniffMedia(Buffer.from('hello world, not a video'))).toBe('unknown');
    expect(sniffMedia(Buffer.from([0xff, 0xd8]))).toBe('unknown');
    expect(sniffMedia(box('ftyq'))).toBe('unknown');
  });
});
