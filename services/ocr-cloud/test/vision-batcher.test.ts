import { describe, expect, it } from 'vitest';
import { CloudApiError, classifyGoogleError, withRetries } from '../src/domain/errors.js';
import { VisionBatcher, type VisionAnnotator } from '../src/domain/vision-batcher.js';
import type { VisionImageResponse } from '../src/domain/vision-text.js';

/** An error as google-gax throws it over REST. */
const gaxError = (httpStatusCode: number, code: number, message = `HTTP ${httpStatusCode}`) => Object.assign(new Error(message), { httpStatusCode, code });
const textOf = (image: Buffer): VisionImageResponse => ({ fullTextAnnotation: { text: image.toString() } });

/** A Vision stand-in: records each request's images and answers from a script, then each image's own text. */
function scriptedVision(script: ((images: Buffer[]) => VisionImageResponse[] | Error | undefined)[] = []) {
  const requests: string[][] = [];
  const annotate: VisionAnnotator = async (images) => {
    requests.push(images.map((i) => i.toString()));
    const step = script.shift()?.(images);
    if (step instanceof Error) throw step;
    return step ?? images.map(textOf);
  };
  return { requests, annotate };
}

const waits: number[] = [];
const options = { maxImages: 16, maxBytes: 9_000_000, windowMs: 20, concurrency: 2, retry: { retries: 3, baseMs: 100, sleep: async (ms: number) => void waits.push(ms), random: () => 1 } };
const images = (n: number, prefix = 'frame') => Array.from({ length: n }, (_, i) => Buffer.from(`${prefix}-${i}`));

describe('VisionBatcher', () => {
  it('sends frames that arrive together in requests of at most 16, each frame getting its own answer', async () => {
    const vision = scriptedVision();
    const batcher = new VisionBatcher(vision.annotate, options);
    const answers = await Promise.all(images(20).map((i) => batcher.read(i)));
    expect(vision.requests.map((r) => r.length)).toEqual([16, 4]);
    expect(answers.map((a) => a.fullTextAnnotation?.text)).toEqual(images(20).map(String));
  });

  it('keeps a request under the size limit', async () => {
    const vision = scriptedVision();
    const batcher = new VisionBatcher(vision.annotate, { ...options, maxBytes: 3 * 12 });
    await Promise.all(images(5).map((i) => batcher.read(i))); // 7 bytes each, 12 in base64
    expect(vision.requests.map((r) => r.length)).toEqual([3, 2]);
  });

  it('retries a request answered 429 or 503 with growing waits, then answers every frame', async () => {
    waits.length = 0;
    const vision = scriptedVision([() => gaxError(429, 8), () => gaxError(503, 14)]);
    const batcher = new VisionBatcher(vision.annotate, options);
    const answers = await Promise.all(images(3).map((i) => batcher.read(i)));
    expect(vision.requests).toHaveLength(3);
    expect(waits).toEqual([100, 200]);
    expect(answers.map((a) => a.fullTextAnnotation?.text)).toEqual(['frame-0', 'frame-1', 'frame-2']);
  });

  it('gives up after the retries with a transient error the bus retries later', async () => {
    const vision = scriptedVision(Array.from({ length: 4 }, () => () => gaxError(503, 14)));
    const batcher = new VisionBatcher(vision.annotate, options);
    const err = await batcher.read(Buffer.from('x')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CloudApiError);
    expect((err as CloudApiError).kind).toBe('transient');
    expect(vision.requests).toHaveLength(4);
  });

  it('refuses only the image Vision refused, and retries alone an image that failed for a passing reason', async () => {
    const vision = scriptedVision([
      (imgs) => imgs.map((i, n) => (n === 1 ? { error: { code: 3, message: 'Bad image data.' } } : n === 2 ? { error: { code: 14, message: 'try again' } } : textOf(i))),
    ]);
    const batcher = new VisionBatcher(vision.annotate, options);
    const settled = await Promise.allSettled(images(3).map((i) => batcher.read(i)));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const refused = (settled[1] as PromiseRejectedResult).reason as CloudApiError;
    expect(refused.kind).toBe('image');
    expect(refused.reason).toBe('Cloud AI could not read this frame: Bad image data.');
    expect(vision.requests).toEqual([['frame-0', 'frame-1', 'frame-2'], ['frame-2']]);
  });

  it('fails every frame of a request Google refused for the whole engine, without retrying', async () => {
    const vision = scriptedVision([() => gaxError(401, 16, 'Request had invalid authentication credentials.')]);
    const batcher = new VisionBatcher(vision.annotate, options);
    const settled = await Promise.allSettled(images(2).map((i) => batcher.read(i)));
    expect(settled.map((s) => (s as PromiseRejectedResult).reason.kind)).toEqual(['engine', 'engine']);
    expect(vision.requests).toHaveLength(1);
  });

  it('sends a request refused as a whole (400) again image by image, to find the one at fault', async () => {
    const vision = scriptedVision([() => gaxError(400, 3, 'Request payload size exceeds the limit'), undefined as never, () => gaxError(400, 3, 'Image too large')]);
    const batcher = new VisionBatcher(vision.annotate, options);
    const settled = await Promise.allSettled(images(2).map((i) => batcher.read(i)));
    expect(settled.map((s) => s.status)).toEqual(['fulfilled', 'rejected']);
    expect((settled[1] as PromiseRejectedResult).reason.kind).toBe('image');
    expect(vision.requests).toEqual([['frame-0', 'frame-1'], ['frame-0'], ['frame-1']]);
  });
});

describe('what a failed call to Google means', () => {
  it('sorts statuses into transient, rate limit, engine and image failures', () => {
    expect(classifyGoogleError(gaxError(503, 14), 'vision').kind).toBe('transient');
    expect(classifyGoogleError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), 'vision').kind).toBe('transient');
    expect(classifyGoogleError(gaxError(429, 8), 'vision').kind).toBe('rate-limited');
    expect(classifyGoogleError(gaxError(429, 8, "Quota exceeded for quota metric 'Requests' and limit 'Requests per day'"), 'vision')).toMatchObject({ kind: 'engine', reason: expect.stringMatching(/quota/) });
    expect(classifyGoogleError(gaxError(401, 16), 'vision')).toMatchObject({ kind: 'engine', reason: expect.stringMatching(/credentials were refused/) });
    expect(classifyGoogleError({ status: 403, message: 'Cloud Translation API has not been used' }, 'translation')).toMatchObject({ kind: 'engine', reason: expect.stringMatching(/Cloud Translation API is not enabled/) });
    expect(classifyGoogleError(gaxError(400, 3), 'vision').kind).toBe('invalid');
  });

  it('retries what may pass and stops at once on what will not', async () => {
    let calls = 0;
    const policy = { retries: 2, baseMs: 1, sleep: async () => undefined };
    await expect(withRetries(async () => (++calls < 3 ? Promise.reject(gaxError(500, 13)) : 'ok'), 'translation', policy)).resolves.toBe('ok');
    calls = 0;
    const denied = async () => {
      calls++;
      throw gaxError(403, 7, 'denied');
    };
    await expect(withRetries(denied, 'translation', policy)).rejects.toMatchObject({ kind: 'engine' });
    expect(calls).toBe(1);
  });
});
