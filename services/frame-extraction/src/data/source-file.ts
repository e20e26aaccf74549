import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { ObjectStorage } from '@frametext/service-kit';

/**
 * Copies an object to a private temporary file (ffmpeg needs a seekable file), runs `work` on it and removes
 * it again, whatever happens.
 */
export async function withLocalCopy<T>(storage: ObjectStorage, key: string, workDir: string | undefined, work: (path: string, size: number) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(join(workDir ?? tmpdir(), 'frame-extraction-'));
  try {
    const path = join(dir, 'source');
    await pipeline(await storage.get(key), createWriteStream(path));
    const { size } = await stat(path);
    return await work(path, size);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
