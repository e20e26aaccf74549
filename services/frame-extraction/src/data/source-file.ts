import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ObjectStorage } from '@frametext/service-kit';

/** The source does not fit in the working folder's free space (beside the room kept free). */
export class NoScratchRoomError extends Error {
  constructor(
    readonly sourceBytes: number,
    readonly freeBytes: number,
  ) {
    super(`the source (${sourceBytes} bytes) does not fit in the working folder (${freeBytes} bytes free)`);
    this.name = 'NoScratchRoomError';
  }
}

export interface ScratchSettings {
  /** The folder copies go to; the system's temporary folder when not set. */
  workDir?: string;
  /** Bytes the folder keeps free beside a copy. */
  reserveBytes: number;
}

/**
 * Copies an object to a private temporary file (ffmpeg needs a seekable file), runs `work` on it and removes
 * it again, whatever happens. A source that does not fit in the folder's free space is refused before any byte is
 * copied (NoScratchRoomError), rather than filling the disk and getting the process evicted.
 */
export async function withLocalCopy<T>(storage: ObjectStorage, key: string, scratch: ScratchSettings, work: (path: string, size: number) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(scratch.workDir ?? tmpdir(), 'frame-extraction-'));
  try {
    const expected = (await storage.head(key))?.size;
    if (expected !== undefined) {
      const { bavail, bsize } = await statfs(dir);
      const free = bavail * bsize - scratch.reserveBytes;
      if (expected > free) throw new NoScratchRoomError(expected, Math.max(0, free));
    }
    const path = join(dir, 'source');
    await pipeline(await storage.get(key), createWriteStream(path));
    const { size } = await stat(path);
    return await work(path, size);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
