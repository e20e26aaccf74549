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
  /** Bytes of the next frame's header read so far (it is short: a few dozen bytes). */
  private header: Buffer = Buffer.alloc(0);
  /** The frame being filled: its pixels are copied once, from ffmpeg's chunks straight into place. */
  private frame: RawFrame | null = null;
  private filled = 0;

  constructor() {
    // No 'close' event: fluent-ffmpeg takes its output stream's close for a failure when the process has not
    // exited 20 ms later, which on a busy machine failed uploads whose frames had all come out. The process's own
    // exit ends the run; decodeFrames kills it when the frames stop being read.
    super({ readableObjectMode: true, emitClose: false });
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, done: TransformCallback): void {
    try {
      let at = 0;
      while (at < chunk.length) at = this.frame ? this.fill(chunk, at) : this.readHeader(chunk, at);
      done();
    } catch (err) {
      done(err as Error);
    }
  }

  override _flush(done: TransformCallback): void {
    const left = this.header.length + this.filled;
    done(left > 0 || this.frame ? new Error(`ffmpeg output ended inside a frame (${left} bytes left)`) : null);
  }

  /** Takes header bytes from `chunk` at `at`; once the header is whole, starts its frame. Answers where it stopped. */
  private readHeader(chunk: Buffer, at: number): number {
    const take = Math.min(chunk.length - at, 64 - this.header.length);
    const head = Buffer.concat([this.header, chunk.subarray(at, at + take)]);
    const m = HEADER.exec(head.toString('latin1'));
    if (!m) {
      if (head.length >= 64 || !'P6'.startsWith(head.subarray(0, 2).toString('latin1'))) throw new Error('ffmpeg output is not a PPM frame stream');
      this.header = head;
      return at + take;
    }
    if (Number(m[3]) > 255) throw new Error('16-bit PPM frames are not expected');
    const width = Number(m[1]);
    const height = Number(m[2]);
    this.frame = { data: Buffer.allocUnsafe(width * height * 3), width, height };
    this.filled = 0;
    // The header ended inside this chunk: the pixels start right after it.
    const used = m[0].length - this.header.length;
    this.header = Buffer.alloc(0);
    return at + used;
  }

  private fill(chunk: Buffer, at: number): number {
    const frame = this.frame!;
    const copied = chunk.copy(frame.data, this.filled, at, Math.min(chunk.length, at + frame.data.length - this.filled));
    this.filled += copied;
    if (this.filled === frame.data.length) {
      this.frame = null;
      this.filled = 0;
      this.push(frame);
    }
    return at + copied;
  }
}
