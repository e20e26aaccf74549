import { frameTimestampKey } from '@frametext/contracts';
import type { ObjectStorage } from '@frametext/service-kit';
import type { EncodedFrame, FrameFormat } from '../domain/frame-images.js';

export interface FrameKeys {
  objectKey: string;
  thumbnailKey: string;
}

const EXTENSIONS: Record<FrameFormat, string> = { jpeg: 'jpg', png: 'png' };

/**
 * Where a frame and its thumbnail (a JPEG) live: the name starts with the zero-padded ms, so a redelivery overwrites
 * the same objects.
 */
export function frameKeys(uploadId: string, timestampMs: number, format: FrameFormat): FrameKeys {
  const name = frameTimestampKey(timestampMs);
  return { objectKey: `uploads/${uploadId}/frames/${name}.${EXTENSIONS[format]}`, thumbnailKey: `uploads/${uploadId}/thumbs/${name}.jpg` };
}

export async function putFrame(storage: ObjectStorage, keys: FrameKeys, frame: EncodedFrame): Promise<void> {
  await storage.put(keys.objectKey, frame.image, { contentType: `image/${frame.format}`, size: frame.image.length });
  await storage.put(keys.thumbnailKey, frame.thumbnail, { contentType: 'image/jpeg', size: frame.thumbnail.length });
}
