import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timestampFromFrameName, uploadDetailsOldResponseSchema, uploadDetailsResponseSchema, uploadStatusResponseSchema } from '@frametext/contracts';
import { completed, detection, extracted, newUploadId, newUserId, ocr } from './fixtures.js';
import { eventually, startResults, type TestResults } from './helpers.js';

let svc: TestResults;
beforeAll(async () => {
  svc = await startResults();
});
afterAll(async () => {
  await svc?.stop();
});

const status = async (id: string, userId: string) => (await svc.get(`/api/checkUploadStatus/${id}`, userId)).body?.data;
const processedEvents = (id: string) => svc.published.filter((p) => p.type === 'upload.processed.v1' && p.data.uploadId === id);
/**
 * The upload.processed.v1 the service has written for `id`, published or not: once the messages in question are
 * handled (their ids in the inbox), this is every one it will ever send for them.
 */
const processedWritten = async (id: string) => (await svc.service.outbox()).filter((e) => e.type === 'upload.processed.v1' && e.data.uploadId === id);

describe('an upload going through the pipeline', () => {
  it('moves uploaded -> processing -> processed, counting each frame once, and publishes upload.processed.v1 once', async () => {
    const id = newUploadId();
    const user = newUserId();

    await svc.publish('upload.completed.v1', completed(id, user));
    await eventually(async () => (await status(id, user))?.status === 'uploaded');
    const first = await svc.get(`/api/checkUploadStatus/${id}`, user);
    expect(uploadStatusResponseSchema.parse(first.body)).toEqual({ data: { uploadID: id, status: 'uploaded', framesDone: 0, framesTotal: null, uploadsAhead: expect.any(Number), failureReason: null } });

    await svc.publish('frames.extracted.v1', extracted(id, 3));
    await eventually(async () => (await status(id, user))?.status === 'processing');
    expect(await status(id, user)).toMatchObject({ framesTotal: 3, framesDone: 0 });

    await svc.publish('ocr.completed.v1', ocr(id, 0, [detection('Battery 81%', 0), detection('12.5 kW', 1)]));
    await eventually(async () => (await status(id, user))?.framesDone === 1);
    // The same frame again (a redelivery after a worker crash carries a new message id): still one frame, once both
    // messages are handled.
    await svc.deliver('ocr.completed.v1', ocr(id, 0, [detection('Battery 81%', 0), detection('12.5 kW', 1)]));
    await svc.deliver('ocr.completed.v1', ocr(id, 1, [detection('Battery 82%', 0), detection('12.7', 1), detection('kW', 1, 200)]));
    expect(await status(id, user)).toMatchObject({ status: 'processing', framesDone: 2, framesTotal: 3 });

    await svc.publish('ocr.completed.v1', ocr(id, 2, [], 'The frame could not be read.'));
    await eventually(async () => (await status(id, user))?.status === 'processed');
    expect(await status(id, user)).toMatchObject({ framesDone: 3, framesTotal: 3 });

    await eventually(() => processedEvents(id).length === 1);
    // Frame 2 failed OCR: two frames processed for billing.
    expect(processedEvents(id)[0]!.data).toEqual({ uploadId: id, userId: user, framesProcessed: 2, engine: 'server' });

    // A late redelivery after the finish changes nothing and publishes nothing: handled, it wrote no second event.
    await svc.deliver('ocr.completed.v1', ocr(id, 1, [detection('changed', 0)]));
    expect(await processedWritten(id)).toHaveLength(1);
    expect(processedEvents(id)).toHaveLength(1);

    const details = await svc.get(`/api/getUploadDetails/${id}?mode=numerical`, user);
    expect(details.status).toBe(200);
    const parsed = uploadDetailsResponseSchema.parse(details.body);
    expect(parsed.results.linesByFrame.map((lines) => lines.map((l) => l.text))).toEqual([['Battery 81%', '12.5 kW'], ['Battery 82%', '12.7 kW'], []]);
    expect(parsed.results.results.map((r) => r.length)).toEqual([2, 3, 0]);
    expect(parsed.results.ocrResults!.map(({ t, fileIndex, text }) => ({ t, fileIndex, text }))).toEqual([
      { t: 0, fileIndex: 0, text: 'Battery 81%\n12.5 kW' },
      { t: 5, fileIndex: 1, text: 'Battery 82%\n12.7 kW' },
      { t: 10, fileIndex: 2, text: '' },
    ]);
    expect(parsed.results.maxValues.maxTextLength).toBe('Battery 81%'.length);
    expect(parsed.results.processingType).toBe('numerical');
    expect(parsed.results.resultsUrl ?? null).toBeNull();
    expect(parsed.urls).toHaveLength(3);
    expect(parsed.urls.map((u) => timestampFromFrameName(decodeURIComponent(new URL(u).pathname)))).toEqual([0, 5000, 10000]);
    expect(parsed.urls[0]).toContain(`/files/uploads/${id}/frames/`);
    expect(parsed.uploadData).toMatchObject({
      uploadName: 'Charger run',
      ocrType: 'server',
      isVideo: true,
      mediaContent: 'numerical',
      targetFrameRate: 0.2, // frames per second: one every 5 s
      maxFrames: 3,
      creditCost: 1,
      source: 'upload',
      status: 'processed',
      mimeType: 'video/mp4',
      basePath: `uploads/${id}/`,
      ownerUid: user,
      userID: user,
      sortPreference: null,
      duration: 15,
      framesTotal: 3,
    });
    expect(parsed.uploadData.createdAt._seconds).toBeGreaterThan(Date.now() / 1000 - 120);
    expect(parsed.uploadData.processedAt).not.toBeNull();

    const old = await svc.get(`/api/getUploadDetailsOld/${id}`, user);
    expect(old.status).toBe(200);
    const oldParsed = uploadDetailsOldResponseSchema.parse(old.body);
    expect(Object.keys(oldParsed.results).sort()).toEqual(['maxValues', 'results', 'resultsUrl']);
    expect(oldParsed.results.results).toEqual(parsed.results.results);
  });

  it('counts the frames read while the video is still being cut, and is processing from the first one', async () => {
    const id = newUploadId();
    const user = newUserId();
    await svc.publish('upload.completed.v1', completed(id, user));
    await eventually(async () => (await status(id, user))?.status === 'uploaded');
    // Extraction hands each frame to OCR as soon as it is stored: two are read before the total is known.
    await svc.publish('ocr.completed.v1', ocr(id, 0, [detection('Battery 81%', 0)]));
    await svc.publish('ocr.completed.v1', ocr(id, 1, [detection('Battery 82%', 0)]));
    await eventually(async () => (await status(id, user))?.framesDone === 2);
    expect(await status(id, user)).toMatchObject({ status: 'processing', framesDone: 2, framesTotal: null, uploadsAhead: 0 });
    await svc.publish('frames.extracted.v1', extracted(id, 3));
    await eventually(async () => (await status(id, user))?.framesTotal === 3);
    expect(await status(id, user)).toMatchObject({ status: 'processing', framesDone: 2 });
    await svc.publish('ocr.completed.v1', ocr(id, 2, [detection('Battery 83%', 0)]));
    await eventually(async () => (await status(id, user))?.status === 'processed');
  });

  it('finishes once when the frames arrive together, duplicates included', async () => {
    const id = newUploadId();
    const user = newUserId();
    const messages = [
      await svc.publish('upload.completed.v1', completed(id, user, { maxFrames: 8 })),
      await svc.publish('frames.extracted.v1', extracted(id, 8)),
      ...(await Promise.all(Array.from({ length: 16 }, (_, i) => svc.publish('ocr.completed.v1', ocr(id, i % 8, [detection(`frame ${i % 8}`, 0)]))))),
    ];
    // Every message handled: whatever each wrote is in the outbox, and one finish wrote one event.
    await Promise.all(messages.map((message) => svc.service.waitHandled(message)));
    expect(await status(id, user)).toMatchObject({ status: 'processed' });
    expect(await processedWritten(id)).toHaveLength(1);
    await eventually(() => processedEvents(id).length === 1);
    expect(processedEvents(id)[0]!.data.framesProcessed).toBe(8);
    expect(await status(id, user)).toMatchObject({ framesDone: 8, framesTotal: 8 });
  });

  it('tolerates any order: frames and OCR before the upload itself', async () => {
    const id = newUploadId();
    const user = newUserId();
    await svc.publish('frames.extracted.v1', extracted(id, 2));
    await svc.publish('ocr.completed.v1', ocr(id, 0, [detection('first', 0)]));
    await svc.publish('ocr.completed.v1', ocr(id, 1, [detection('second', 0)]));
    await eventually(async () => Number((await svc.db('frames').where({ upload_id: id }).whereNotNull('ocr_done_at').count({ n: '*' }))[0]!.n) === 2);
    // Without its owner the upload is nobody's yet, and not finished.
    expect((await svc.db('uploads').where({ id }).first()).status).toBe('processing');
    expect(processedEvents(id)).toHaveLength(0);

    await svc.publish('upload.completed.v1', completed(id, user, { maxFrames: 2 }));
    await eventually(async () => (await status(id, user))?.status === 'processed');
    await eventually(() => processedEvents(id).length === 1);
    expect(await status(id, user)).toMatchObject({ framesDone: 2, framesTotal: 2 });
  });

  it('marks a failed upload with its reason, and answers its details with that reason', async () => {
    const id = newUploadId();
    const user = newUserId();
    await svc.publish('upload.completed.v1', completed(id, user));
    await svc.publish('upload.failed.v1', { uploadId: id, userId: user, stage: 'extraction', reason: 'The video could not be read: it has no video track.' });
    await eventually(async () => (await status(id, user))?.status === 'failed');
    expect(await status(id, user)).toEqual({ uploadID: id, status: 'failed', framesDone: 0, framesTotal: null, uploadsAhead: 0, failureReason: 'The video could not be read: it has no video track.' });
    const details = await svc.get(`/api/getUploadDetails/${id}`, user);
    expect(details.status).toBe(409);
    expect(details.body.error).toMatchObject({ code: 'results/failed' });
    expect(details.body.error.message).toContain('no video track');
  });

  it('writes the presentation text file, slide by slide with times, and answers it as resultsUrl', async () => {
    const id = newUploadId();
    const user = newUserId();
    await svc.publish('upload.completed.v1', completed(id, user, { mediaContent: 'presentation', slideDetection: true, maxFrames: 2 }));
    await svc.publish('frames.extracted.v1', extracted(id, 2));
    await svc.publish('ocr.completed.v1', ocr(id, 0, [detection('Quarterly review', 0), detection('Agenda', 1)]));
    await svc.publish('ocr.completed.v1', ocr(id, 1, [detection('Revenue', 0, 10), detection('up 12%', 0, 200)]));
    await eventually(async () => (await status(id, user))?.status === 'processed');

    const text = (await svc.ctx.storage.getBuffer(`uploads/${id}/results/presentation.txt`)).toString('utf8');
    expect(text).toBe('Slide 1 (0:00)\nQuarterly review\nAgenda\n\nSlide 2 (0:05)\nRevenue up 12%\n');
    const details = await svc.get(`/api/getUploadDetails/${id}?mode=presentation`, user);
    expect(details.body.results.processingType).toBe('presentation');
    expect(details.body.results.resultsUrl).toContain(`/files/uploads/${id}/results/presentation.txt?`);
    const old = await svc.get(`/api/getUploadDetailsOld/${id}`, user);
    expect(old.body.results.resultsUrl).toContain('presentation.txt');
  });
});
