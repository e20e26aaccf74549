import { randomUUID } from 'node:crypto';
import { frameTimestampKey, type Detection, type EventData } from '@frametext/contracts';
import { rectVertices } from '@frametext/text-analysis';

export const FRAME_INTERVAL_MS = 5000;

export function completed(uploadId: string, userId: string, overrides: Partial<EventData<'upload.completed.v1'>> = {}): EventData<'upload.completed.v1'> {
  return {
    uploadId,
    userId,
    uploadName: 'Charger run',
    kind: 'video',
    objectKeys: [`uploads/${uploadId}/source/video.mp4`],
    mimeType: 'video/mp4',
    fileNames: ['video.mp4'],
    timestamps: null,
    engine: 'server',
    mediaContent: 'numerical',
    intervalSeconds: 5,
    slideDetection: false,
    sortPreference: null,
    maxFrames: 3,
    creditCost: 1,
    originalLanguage: null,
    targetLanguage: null,
    durationSeconds: 15,
    createdAt: new Date().toISOString(),
    ...overrides,
  };
}

export function frameKey(uploadId: string, index: number): string {
  return `uploads/${uploadId}/frames/${frameTimestampKey(index * FRAME_INTERVAL_MS)}.jpg`;
}

export function thumbKey(uploadId: string, index: number): string {
  return `uploads/${uploadId}/thumbs/${frameTimestampKey(index * FRAME_INTERVAL_MS)}.jpg`;
}

export function extracted(uploadId: string, framesTotal: number): EventData<'frames.extracted.v1'> {
  return {
    uploadId,
    framesTotal,
    durationSeconds: framesTotal * 5,
    frames: Array.from({ length: framesTotal }, (_, i) => ({
      frameIndex: i,
      timestampMs: i * FRAME_INTERVAL_MS,
      objectKey: frameKey(uploadId, i),
      thumbnailKey: thumbKey(uploadId, i),
    })),
  };
}

/** A line-level detection at row `row` (40 px apart), `x` px from the left. */
export function detection(text: string, row: number, x = 10): Detection {
  const y = 20 + row * 40;
  const w = text.length * 12;
  return {
    text,
    vertices: rectVertices({ x, y, w, h: 24 }),
    area: w * 24,
    confidence: 91,
    blockType: 'LINE',
  };
}

export function ocr(uploadId: string, frameIndex: number, detections: Detection[], failureReason?: string): EventData<'ocr.completed.v1'> {
  return {
    uploadId,
    frameIndex,
    timestampMs: frameIndex * FRAME_INTERVAL_MS,
    engine: 'server',
    detections,
    imageWidth: 1280,
    imageHeight: 720,
    durationMs: 120,
    ...(failureReason ? { failureReason } : {}),
  };
}

export const newUploadId = () => randomUUID();
export const newUserId = () => randomUUID();
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
