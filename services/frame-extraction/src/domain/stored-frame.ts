/** A frame in storage: its time in ms and the keys of its JPEG and thumbnail. */
export interface StoredFrame {
  timestampMs: number;
  objectKey: string;
  thumbnailKey: string;
}
