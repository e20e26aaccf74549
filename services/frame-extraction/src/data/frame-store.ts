import { frameTimestampKey } from '@frametext/contracts';
import type { ObjectStorage } from '@frametext/service-kit';

export interface FrameKeys {
  objectKey: string;
  thumbnailKey: string;
}

/** Where a frame and its thumbnail live: the name starts with the zero-padded ms, so a redelivery overwrites the same objects. */
export function frameKeys(uploadId: string, timestampMs: number): FrameKeys {
  const name = `${frameTimestampKey(timestampMs)}.jpg`;
  return { objectKey: `uploads/${uploadId}/frames/${name}`, thumbnailKey: `uploads/${uploadId}/thumbs/${name}` };
}

export async function putFrame(storage: ObjectStorage, keys: FrameKeys, jpeg: Buffer, thumbnail: Buffer): Promise<void> {
  await storage.put(keys.objectKey, jpeg, { contentType: 'image/jpeg', size: jpeg.length });
  await storage.put(keys.thumbnailKey, thumbnail, { contentType: 'image/jpeg', size: thumbnail.length });
}
