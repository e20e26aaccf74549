// Captioned videos through the whole pipeline (gateway, frame extraction, Tesseract, results) on the real Postgres
// and RabbitMQ. The captions corpus (sample-media: 14 captions of one and two lines over a busy, cluttered moving
// picture): the Region view's usual box, with its filters as they start, exports an SRT of one cue per caption.
// Captions where a player puts them (low, with descenders, long lines): the API's default SRT, with no box given,
// holds one cue per caption, its box found from the frames (text-zones.ts).
import { readFile } from 'node:fs/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CAPTIONS_CORPUS, LOW_CAPTIONS, makeCaptionsVideo, type GeneratedVideo } from '@frametext/sample-media';
import { blockLimits, captionCuesInBox, defaultRect, editDistance, openFilters, sameCaption, toSrt, type TextBlock } from '../../packages/text-analysis/src/index.js';
import { useStack } from '../support/use-stack.js';
import { parseSrt } from '../support/srt.js';

const dir = mkdtempSync(path.join(tmpdir(), 'captions-media-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const stack = useStack();

const INTERVAL = 0.5;
/** The Region view's usual Green box: two thirds of the width, its bottom at 0.96 (region-boxes.ts defaultRect). */
const GREEN_BOX = defaultRect(0);

/** Uploads a generated video as captions read every INTERVAL seconds, waits until it is processed; its id. */
async function processedUpload(token: string, video: GeneratedVideo, name: string): Promise<string> {
  const res = await stack.api(
    'POST',
    '/getUploadURL',
    { kind: 'video', isVideo: true, mimeType: 'video/mp4', fileName: `${name}.mp4`, ocrType: 'server', uploadName: name, duration: video.durationSeconds, targetFrameRate: 1 / INTERVAL, mediaContent: 'captions' },
    token,
  );
  expect(res.status).toBe(200);
  const put = await fetch(res.body.urls[0], { method: 'PUT', body: await readFile(video.path), headers: { 'content-type': 'video/mp4' } });
  expect(put.status).toBe(200);
  const uploadID = res.body.uploadID as string;
  expect((await stack.api('POST', '/uploadComplete', { uploadID }, token)).status).toBe(200);
  expect((await stack.untilUpload(token, uploadID, { timeoutMs: 400_000 })).status).toBe('processed');
  return uploadID;
}

describe('a captioned video through the whole pipeline', () => {
  it('exports one SRT cue per caption from the usual caption box, with the caption text and times', async () => {
    const { token } = await stack.signUp();
    const video = await makeCaptionsVideo({ dir, captions: [...CAPTIONS_CORPUS], outline: 2, size: 40, clutter: true });
    const uploadID = await processedUpload(token, video, 'Captions');

    // What the Region view gets: each frame's blocks and time; extracted frames keep the video's size.
    const details = (await stack.api('GET', `/getUploadDetails/${uploadID}?mode=captions`, undefined, token)).body;
    const times = (details.results.ocrResults as { t: number; fileIndex: number }[]).sort((a, b) => a.fileIndex - b.fileIndex).map((r) => r.t);
    const blocks = details.results.results as TextBlock[][];
    expect(blocks).toHaveLength(times.length);
    const frames = times.map((t, i) => ({ t, blocks: blocks[i] ?? [], space: { width: video.width, height: video.height } }));
    const cues = parseSrt(toSrt(captionCuesInBox(frames, GREEN_BOX, openFilters(blockLimits(blocks)))));

    expect(cues.map((c) => c.text)).toHaveLength(CAPTIONS_CORPUS.length);
    let errors = 0;
    let characters = 0;
    let onTime = 0;
    const report: string[] = [];
    CAPTIONS_CORPUS.forEach((caption, i) => {
      const cue = cues[i]!;
      const truth = caption.text.replace(/\n/g, ' ');
      expect(sameCaption(cue.text, truth), `cue ${i + 1} "${cue.text}" for "${truth}"`).toBe(true);
      errors += editDistance(cue.text, truth);
      characters += truth.length;
      // A frame is read at each multiple of the interval: the first one showing the caption is at most one interval
      // after it starts, and the first one without it at most one interval after it ends (one video frame of slack).
      const startOff = cue.start - caption.startS;
      const endOff = cue.end - caption.endS;
      if (Math.abs(startOff) <= INTERVAL + 0.04 && Math.abs(endOff) <= INTERVAL + 0.04) onTime++;
      expect(Math.abs(startOff), `start of "${cue.text}"`).toBeLessThanOrEqual(2 * INTERVAL + 0.04);
      expect(Math.abs(endOff), `end of "${cue.text}"`).toBeLessThanOrEqual(2 * INTERVAL + 0.04);
      report.push(`${startOff.toFixed(2)} ${endOff.toFixed(2)} "${cue.text}" for "${truth}"`);
    });
    // The API's default export (no box given) finds its own box from the frames: the same captions, cue for cue.
    const byDefault = await fetch(`${stack.base}/api/uploads/${uploadID}/export?format=srt&view=region`, { headers: { authorization: `Bearer ${token}` } });
    const defaultCues = parseSrt(await byDefault.text());
    report.push(`default export: ${defaultCues.length} cues`);
    expect(defaultCues.filter((c, i) => CAPTIONS_CORPUS[i] && sameCaption(c.text, CAPTIONS_CORPUS[i].text.replace(/\n/g, ' '))).length, defaultCues.map((c) => c.text).join('\n')).toBeGreaterThanOrEqual(CAPTIONS_CORPUS.length - 1);
    const accuracy = 1 - errors / characters;
    console.log(`captions corpus: ${cues.length} cues for ${CAPTIONS_CORPUS.length} captions, ${onTime} within one interval, character accuracy ${(accuracy * 100).toFixed(1)}%\n${report.join('\n')}`);
    expect(accuracy).toBeGreaterThanOrEqual(0.93);
    expect(onTime).toBeGreaterThanOrEqual(CAPTIONS_CORPUS.length - 2);
  }, 500_000);

  it('exports one SRT cue per caption low in the frame, with descenders and long lines, with no box given', async () => {
    const { token } = await stack.signUp();
    const video = await makeCaptionsVideo({ dir, name: 'low.mp4', captions: [...LOW_CAPTIONS], outline: 2, size: 40, lastLineTop: 0.92 });
    const uploadID = await processedUpload(token, video, 'Low captions');

    // The API's default caption export: no kept work, no box given.
    const res = await fetch(`${stack.base}/api/uploads/${uploadID}/export?format=srt&view=region`, { headers: { authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    const cues = parseSrt(await res.text());

    // For comparison only: what the usual box (bottom at 0.96, two thirds of the width) holds on the same frames.
    const details = (await stack.api('GET', `/getUploadDetails/${uploadID}?mode=captions`, undefined, token)).body;
    const blocks = details.results.results as TextBlock[][];
    const frames = blocks.map((b, i) => ({ t: i * INTERVAL, blocks: b, space: { width: video.width, height: video.height } }));
    const usual = captionCuesInBox(frames, GREEN_BOX, openFilters(blockLimits(blocks)));
    console.log(`low captions: ${cues.length} cues from the default export, ${usual.length} in the usual box, for ${LOW_CAPTIONS.length} captions\n${cues.map((c) => `${c.start} ${c.end} "${c.text}"`).join('\n')}`);

    expect(cues.map((c) => c.text)).toHaveLength(LOW_CAPTIONS.length);
    LOW_CAPTIONS.forEach((caption, i) => {
      const cue = cues[i]!;
      expect(sameCaption(cue.text, caption.text), `cue ${i + 1} "${cue.text}" for "${caption.text}"`).toBe(true);
      // Whole words at both ends: the first and last words of the caption are in the cue.
      const words = caption.text.toLowerCase().match(/[a-z]+/g)!;
      expect(cue.text.toLowerCase(), `ends of "${caption.text}"`).toContain(words[0]!);
      expect(cue.text.toLowerCase(), `ends of "${caption.text}"`).toContain(words[words.length - 1]!);
      expect(Math.abs(cue.start - caption.startS), `start of "${cue.text}"`).toBeLessThanOrEqual(2 * INTERVAL + 0.04);
      expect(Math.abs(cue.end - caption.endS), `end of "${cue.text}"`).toBeLessThanOrEqual(2 * INTERVAL + 0.04);
    });
  }, 500_000);
});
