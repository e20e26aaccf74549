import { Transform, type TransformCallback } from 'node:stream';

/** One decoded frame: RGB, 8 bits per channel, rows top to bottom. */
export interface RawFrame {
  data: Buffer;
  width: number;
  height: number;
}

const HEADER = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/;

/**
 * Splits ffmpeg's `-f image2pipe -c:v ppm` output into frames. PPM carries each frame's size in a short text
 * header, so frames come out exactly, whatever rotation or scaling ffmpeg applied, with no encoding to undo.
 */
export class PpmFrameSplitter extends Transform {
  private chunks: Buffer[] = [];
  private buffered = 0;

  constructor() {
    super({ readableObjectMode: true });
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    try {
      this.emitFrames();
      done();
    } catch (err) {
      done(err as Error);
    }
  }

  override _flush(done: TransformCallback): void {
    done(this.buffered > 0 ? new Error(`ffmpeg output ended inside a frame (${this.buffered} bytes left)`) : null);
  }

  private emitFrames(): void {
    for (;;) {
      if (this.buffered < 20) return;
      const head = this.peek(Math.min(this.buffered, 64)).toString('latin1');
      const m = HEADER.exec(head);
      if (!m) {
        if (this.buffered >= 64 || !head.startsWith('P6')) throw new Error('ffmpeg output is not a PPM frame stream');
        return;
      }
      const width = Number(m[1]);
      const height = Number(m[2]);
      if (Number(m[3]) > 255) throw new Error('16-bit PPM frames are not expected');
      const size = m[0].length + width * height * 3;
      if (this.buffered < size) return;
      const all = this.takeBytes(size);
      this.push({ data: all.subarray(m[0].length), width, height } satisfies RawFrame);
    }
  }

  private peek(n: number): Buffer {
    if (this.chunks[0]!.length < n) this.chunks = [Buffer.concat(this.chunks)];
    return this.chunks[0]!.subarray(0, n);
  }

  private takeBytes(n: number): Buffer {
    const all = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
    const rest = all.subarray(n);
    this.chunks = rest.length > 0 ? [rest] : [];
    this.buffered = rest.length;
    // Copy, so a frame kept by the caller does not pin the remainder of a large chunk.
    return Buffer.from(all.subarray(0, n));
  }
}
