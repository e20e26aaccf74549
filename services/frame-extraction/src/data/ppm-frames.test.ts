import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { PpmFrameSplitter, type RawFrame } from './ppm-frames.js';

const ppm = (w: number, h: number, fill: number) => Buffer.concat([Buffer.from(`P6\n${w} ${h}\n255\n`, 'latin1'), Buffer.alloc(w * h * 3, fill)]);

async function split(chunks: Buffer[]): Promise<RawFrame[]> {
  const out: RawFrame[] = [];
  for await (const f of Readable.from(chunks).pipe(new PpmFrameSplitter())) out.push(f as RawFrame);
  return out;
}

describe('PpmFrameSplitter', () => {
  it('cuts a PPM stream into frames whatever the chunk boundaries', async () => {
    const stream = Buffer.concat([ppm(4, 2, 7), ppm(3, 3, 9)]);
    const chunks = [stream.subarray(0, 5), stream.subarray(5, 40), stream.subarray(40)];
    const frames = await split(chunks);
    expect(frames.map((f) => [f.width, f.height, f.data.length, f.data[0]])).toEqual([
      [4, 2, 24, 7],
      [3, 3, 27, 9],
    ]);
  });

  it('reads frames fed one byte at a time, and refuses a stream that is not PPM', async () => {
    const stream = Buffer.concat([ppm(2, 2, 3), ppm(1, 1, 5)]);
    const frames = await split([...stream].map((b) => Buffer.from([b])));
    expect(frames.map((f) => [f.width, f.height, [...f.data]])).toEqual([
      [2, 2, Array(12).fill(3)],
      [1, 1, [5, 5, 5]],
    ]);
    await expect(split([Buffer.from('GIF89a')])).rejects.toThrow(/not a PPM frame stream/);
  });

  it('fails on a stream that ends inside a frame', async () => {
    await expect(split([ppm(4, 2, 1).subarray(0, 30)])).rejects.toThrow(/ended inside a frame/);
  });
});
