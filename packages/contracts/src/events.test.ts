import { describe, expect, it } from 'vitest';
import { envelopeSchema } from './envelope.js';
import { eventSchemas, isEventType, ocrRequestedRoutingKey } from './events.js';

const quad = [{ x: 0, y: 0 }, { x: 10, y: 0 }, { x: 10, y: 5 }, { x: 0, y: 5 }];

describe('event registry', () => {
  it('names every event entity.past-tense.vN, as the envelope requires', () => {
    for (const type of Object.keys(eventSchemas)) {
      expect(envelopeSchema.shape.type.safeParse(type).success, type).toBe(true);
    }
    expect(isEventType('upload.completed.v1')).toBe(true);
    expect(isEventType('upload.completed.v2')).toBe(false);
  });

  it('routes OCR requests by engine', () => {
    expect(ocrRequestedRoutingKey('server')).toBe('ocr.requested.v1.server');
  });

  it('accepts an OCR result and refuses a detection without its 4 corners', () => {
    const completed = {
      uploadId: 'u1',
      frameIndex: 0,
      timestampMs: 15000,
      engine: 'server',
      detections: [{ text: '42.5', vertices: quad, area: 50, confidence: 91, blockType: 'LINE' }],
      durationMs: 812,
    };
    expect(eventSchemas['ocr.completed.v1'].safeParse(completed).success).toBe(true);
    const broken = { ...completed, detections: [{ ...completed.detections[0], vertices: quad.slice(0, 3) }] };
    const result = eventSchemas['ocr.completed.v1'].safeParse(broken);
    expect(result.error?.issues[0]?.message).toBe('vertices must hold exactly 4 corner points');
  });

  it('refuses a frame index past the 360-frame limit', () => {
    const requested = {
      uploadId: 'u1',
      frameIndex: 360,
      framesTotal: 360,
      timestampMs: 0,
      objectKey: 'uploads/u1/frames/0000000000.jpg',
      engine: 'cloud',
      mediaContent: 'numerical',
      originalLanguage: null,
      targetLanguage: null,
    };
    expect(eventSchemas['ocr.requested.v1'].safeParse(requested).success).toBe(false);
    expect(eventSchemas['ocr.requested.v1'].safeParse({ ...requested, frameIndex: 359 }).success).toBe(true);
  });

  it('requires a failure reason a person can read', () => {
    const failed = { uploadId: 'u1', userId: 'user-1', reason: '', stage: 'extraction' };
    expect(eventSchemas['upload.failed.v1'].safeParse(failed).success).toBe(false);
    expect(eventSchemas['upload.failed.v1'].safeParse({ ...failed, reason: 'The video could not be read.' }).success).toBe(true);
  });

  it('says why an upload was cancelled with a code, and names the owner of a deleted upload', () => {
    const cancelled = { uploadId: 'u1', userId: 'user-1', reason: 'start-failed' };
    expect(eventSchemas['upload.cancelled.v1'].safeParse(cancelled).success).toBe(true);
    expect(eventSchemas['upload.cancelled.v1'].safeParse({ ...cancelled, reason: 'The upload was abandoned.' }).success).toBe(false);
    expect(eventSchemas['upload.deleted.v1'].safeParse({ uploadId: 'u1', userId: 'user-1' }).success).toBe(true);
    expect(eventSchemas['upload.deleted.v1'].safeParse({ uploadId: 'u1' }).success).toBe(false);
    expect(eventSchemas['upload.cancelled.v1'].safeParse({ ...cancelled, reason: 'account-deleted' }).success).toBe(true);
  });

  it('names a deleted account by its uid and time only: no personal data travels with it', () => {
    const deleted = { uid: '6f1c1a52-8a0e-4d5b-9a8e-0c7a2f3b4d5e', deletedAt: '2026-03-01T10:00:00.000Z' };
    expect(eventSchemas['user.deleted.v1'].safeParse(deleted).success).toBe(true);
    expect(eventSchemas['user.deleted.v1'].safeParse({ ...deleted, uid: 'not-a-uuid' }).success).toBe(false);
    // Whatever a publisher adds is dropped on parse, so an e-mail could never ride along.
    expect(eventSchemas['user.deleted.v1'].parse({ ...deleted, email: 'ada@example.com' })).toEqual(deleted);
  });
});
