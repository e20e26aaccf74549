import { open, type FileHandle } from 'node:fs/promises';

/*
 * The length of an MP4 or QuickTime (.mov) video, read from its movie header (`moov` > `mvhd`: a time scale and a
 * duration in its units), so the CLI can fill the upload request's `duration` without ffprobe. Both formats are the
 * same box structure (ISO/IEC 14496-12); `moov` may come before or after the media data, so the top level is walked
 * box by box from the file's headers without reading the media.
 */

interface Box {
  type: string;
  /** Where the box's content starts, after its header. */
  start: number;
  /** Where the box ends (the next box starts). */
  end: number;
}

async function readAt(file: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.alloc(length);
  const { bytesRead } = await file.read(buffer, 0, length, position);
  return buffer.subarray(0, bytesRead);
}

/** The boxes between `from` and `to`, one header read each. */
async function* boxes(file: FileHandle, from: number, to: number): AsyncGenerator<Box> {
  let at = from;
  while (at + 8 <= to) {
    const header = await readAt(file, at, 16);
    if (header.length < 8) return;
    let size = header.readUInt32BE(0);
    const type = header.toString('latin1', 4, 8);
    let headerSize = 8;
    if (size === 1) {
      if (header.length < 16) return;
      size = Number(header.readBigUInt64BE(8));
      headerSize = 16;
    } else if (size === 0) {
      size = to - at;
    }
    if (size < headerSize) return;
    yield { type, start: at + headerSize, end: Math.min(at + size, to) };
    at += size;
  }
}

async function find(file: FileHandle, type: string, from: number, to: number): Promise<Box | undefined> {
  for await (const box of boxes(file, from, to)) if (box.type === type) return box;
  return undefined;
}

/** Seconds the video lasts, or undefined when the file has no readable movie header (not an MP4 or MOV). */
export async function videoDurationSeconds(path: string): Promise<number | undefined> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const moov = await find(file, 'moov', 0, size);
    if (!moov) return undefined;
    const mvhd = await find(file, 'mvhd', moov.start, moov.end);
    if (!mvhd) return undefined;
    const body = await readAt(file, mvhd.start, 32);
    const version = body[0];
    // version 0: creation and modification times of 4 bytes, then time scale (4) and duration (4); version 1: 8-byte times and duration.
    const [timescale, duration] =
      version === 1 && body.length >= 32
        ? [body.readUInt32BE(20), Number(body.readBigUInt64BE(24))]
        : version === 0 && body.length >= 20
          ? [body.readUInt32BE(12), body.readUInt32BE(16)]
          : [0, 0];
    if (!timescale || !duration) return undefined;
    return duration / timescale;
  } finally {
    await file.close();
  }
}
