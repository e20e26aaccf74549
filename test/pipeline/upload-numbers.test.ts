// The numbers of POST /api/getUploadURL and POST /api/logLocalUpload, through the gateway as a client sends them. A
// value out of range or of the wrong type is answered 400 with the field and what to send, never a 500, and nothing
// is reserved or charged for it (a negative duration reached a frame count that threw).
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { useStack } from '../support/use-stack.js';

const stack = useStack();
let token: string;
let creditsBefore: number;

const credits = async () => (await stack.api('GET', '/getUserData', undefined, token)).body.credits as number;

beforeAll(async () => {
  ({ token } = await stack.signUp());
  creditsBefore = await credits();
});

const video = { kind: 'video', isVideo: true, mimeType: 'video/mp4', fileName: 'clip.mp4', size: 1000, uploadName: 'Numbers', duration: 15, targetFrameRate: 1 / 15, ocrType: 'server', mediaContent: 'numerical' };
const slides = { ...video, mediaContent: 'presentation' };
const frames = { kind: 'frames', isVideo: true, uploadName: 'Numbers', timestamps: ['0000000000', '0000001000'], targetFrameRate: 1, ocrType: 'server' };
const local = { uploadID: `local-${Date.now()}`, uploadName: 'Numbers', duration: 10, targetFrameRate: 1 / 5, fileName: 'clip.mp4', ocrType: 'local' };

const DURATION_ABOVE_0 = 'duration: duration must be the length of the video in seconds, above 0';
const DURATION_NUMBER = 'duration: duration must be the length of the video in seconds';
const RATE_ABOVE_0 = 'targetFrameRate: targetFrameRate must be above 0';
const RATE_CHOICE = /^targetFrameRate: targetFrameRate must be 1 \/ one of the interval choices in seconds: /;
const RATE_NUMBER = /^targetFrameRate: targetFrameRate must be frames per second \(1 \/ the interval in seconds\)/;
const SIZE_ABOVE_0 = 'size: size must be the file size in bytes, a whole number above 0';
const TOO_MANY = /^Whoa that's a lot of frames/;

type Case = [name: string, path: string, field: string, value: unknown, body: Record<string, unknown>, code: string, message: string | RegExp];
const INVALID = 'request/invalid-body';

const cases: Case[] = [
  ['a video', '/getUploadURL', 'duration', -1, video, INVALID, DURATION_ABOVE_0],
  ['a video', '/getUploadURL', 'duration', -1e308, video, INVALID, DURATION_ABOVE_0],
  ['a video', '/getUploadURL', 'duration', 0, video, INVALID, DURATION_ABOVE_0],
  ['a video', '/getUploadURL', 'duration', 'NaN', video, INVALID, DURATION_NUMBER],
  ['a video', '/getUploadURL', 'duration', '-Infinity', video, INVALID, DURATION_NUMBER],
  ['a video', '/getUploadURL', 'duration', '15', video, INVALID, DURATION_NUMBER],
  ['a video', '/getUploadURL', 'duration', null, video, INVALID, DURATION_NUMBER],
  ['a video', '/getUploadURL', 'duration', true, video, INVALID, DURATION_NUMBER],
  ['a video', '/getUploadURL', 'duration', [15], video, INVALID, DURATION_NUMBER],
  ['a video', '/getUploadURL', 'duration', 1e308, video, 'upload/too-many-frames', TOO_MANY],
  ['a video', '/getUploadURL', 'targetFrameRate', 0, video, INVALID, RATE_ABOVE_0],
  ['a video', '/getUploadURL', 'targetFrameRate', -1 / 15, video, INVALID, RATE_ABOVE_0],
  ['a video', '/getUploadURL', 'targetFrameRate', 5e-324, video, INVALID, RATE_CHOICE],
  ['a video', '/getUploadURL', 'targetFrameRate', 1e308, video, INVALID, RATE_CHOICE],
  ['a video', '/getUploadURL', 'targetFrameRate', 'NaN', video, INVALID, RATE_NUMBER],
  ['a video', '/getUploadURL', 'size', -1, video, INVALID, SIZE_ABOVE_0],
  ['a video', '/getUploadURL', 'size', 0, video, INVALID, SIZE_ABOVE_0],
  ['a video', '/getUploadURL', 'size', 1e308, video, INVALID, SIZE_ABOVE_0],
  ['a video', '/getUploadURL', 'size', 1.5, video, INVALID, SIZE_ABOVE_0],
  ['a video', '/getUploadURL', 'size', 'NaN', video, INVALID, SIZE_ABOVE_0],
  ['a presentation video', '/getUploadURL', 'duration', -1, slides, INVALID, DURATION_ABOVE_0],
  ['a presentation video', '/getUploadURL', 'targetFrameRate', 0, slides, INVALID, RATE_ABOVE_0],
  ['browser-cut frames', '/getUploadURL', 'duration', -1, frames, INVALID, DURATION_ABOVE_0],
  ['browser-cut frames', '/getUploadURL', 'targetFrameRate', -1, frames, INVALID, RATE_ABOVE_0],
  ['a Local run', '/logLocalUpload', 'duration', -1, local, INVALID, DURATION_ABOVE_0],
  ['a Local run', '/logLocalUpload', 'duration', -1e308, local, INVALID, DURATION_ABOVE_0],
  ['a Local run', '/logLocalUpload', 'duration', 0, local, INVALID, DURATION_ABOVE_0],
  ['a Local run', '/logLocalUpload', 'duration', 'NaN', local, INVALID, DURATION_NUMBER],
  ['a Local run', '/logLocalUpload', 'duration', null, local, INVALID, DURATION_NUMBER],
  ['a Local run', '/logLocalUpload', 'duration', 1e308, local, 'upload/too-many-frames', TOO_MANY],
  ['a Local run', '/logLocalUpload', 'targetFrameRate', 0, local, INVALID, RATE_ABOVE_0],
  ['a Local run', '/logLocalUpload', 'targetFrameRate', -1, local, INVALID, RATE_ABOVE_0],
  ['a Local run', '/logLocalUpload', 'targetFrameRate', 5e-324, local, INVALID, RATE_CHOICE],
  ['a Local run', '/logLocalUpload', 'targetFrameRate', 1e308, local, INVALID, RATE_CHOICE],
  ['a Local run', '/logLocalUpload', 'targetFrameRate', 'Infinity', local, INVALID, RATE_NUMBER],
];

describe('numbers out of range in the upload calls', () => {
  it.each(cases)('%s (POST %s): %s = %j is a 400 that names the field and what to send', async (_name, path, field, value, body, code, message) => {
    const res = await stack.api('POST', path, { ...body, [field]: value }, token);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.error.code).toBe(code);
    if (typeof message === 'string') expect(res.body.error.message).toBe(message);
    else expect(res.body.error.message).toMatch(message);
    // Validation stops at the first problem: nothing is worked out from a value already refused.
    expect(res.body.error.details.issues).toHaveLength(1);
  });

  it('judges the largest size a file may declare against the storage quota: 413, not a 500', async () => {
    const res = await stack.api('POST', '/getUploadURL', { ...video, size: Number.MAX_SAFE_INTEGER }, token);
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('upload/quota-exceeded');
  });

  it('reserved and charged nothing for any of them', async () => {
    expect(await credits()).toBe(creditsBefore);
    // A well-formed request is still taken, so the refusals above were about the numbers.
    expect((await stack.api('POST', '/logLocalUpload', { ...local, uploadID: `local-${randomUUID()}` }, token)).status).toBe(200);
  });
});
