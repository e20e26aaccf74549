import type { Logger, ObjectStorage } from '@frametext/service-kit';
import type { Config } from '../config.js';
import type { ImageLimits } from './frame-images.js';

/** What the extraction use cases need: the object store, the settings, a logger and the upload's cancellation. */
export interface ExtractionContext {
  storage: ObjectStorage;
  config: Config;
  log: Logger;
  /** Throws UploadCancelledError once the upload was deleted: called before each frame is stored. */
  stopIfDeleted(): Promise<void>;
}

export function imageLimits(config: Config): ImageLimits {
  return {
    maxDimension: config.MAX_MEDIA_DIMENSION,
    maxInputPixels: config.MAX_INPUT_PIXELS,
    jpegQuality: config.FRAME_JPEG_QUALITY,
    thumbnailWidth: config.THUMBNAIL_WIDTH,
  };
}

/** Runs `fn` over items with at most `limit` at a time; results keep the items' order. */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
