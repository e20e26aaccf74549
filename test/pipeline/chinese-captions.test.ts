// Chinese captions through the whole pipeline: a script with an API token uploads a video of Chinese
// captions (sample-media's CHINESE_CAPTIONS, drawn in WenQuanYi Micro Hei over a moving colony of cells) with its original
// language zh-CN; the Basic engine reads them with PP-OCR, and the API's SRT export holds one cue per caption, on time,
// in UTF-8.
import { readFile } from 'node:fs/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CHINESE_CAPTIONS, FONT_CJK, makeCaptionsVideo, textsAt } from '@frametext/sample-media';
import { useStack } from '../support/use-stack.js';
import { parseSrt } from '../support/srt.js';

const dir = mkdtempSync(path.join(tmpdir(), 'chinese-captions-media-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const stack = useStack();

const INTERVAL = 0.5;
/** Frames this close to a caption's start or end are not judged: which caption they show is a matter of rounding. */
const EDGE_S = 0.1;
/** Chinese is written without spaces: lines are compared without them. */
const unspaced = (s: string) => s.replace(/\s+/g, '');

describe('a Chinese-captioned video through the API', () => {
  it('reads 90 % of the caption lines exactly, and exports one UTF-8 SRT cue per caption, on time', async () => {
    const person = await stack.signUp();
    const created = await stack.api('POST', '/auth/api-tokens', { name: 'subtitles script', scope: 'upload', password: person.password }, person.token);
    expect(created.status).toBe(201);
    const token = created.body.token as string;

    // Over a moving picture with no text of its own, as a film's (testsrc2's running clock would be text that changes on
    // every frame, which PP-OCR reads).
    const video = await makeCaptionsVideo({ dir, name: 'chinese.mp4', captions: CHINESE_CAPTIONS, font: FONT_CJK, outline: 2, size: 40, picture: 'life' });
    const res = await stack.api(
      'POST',
      '/getUploadURL',
      {
        kind: 'video',
        isVideo: true,
        mimeType: 'video/mp4',
        fileName: 'chinese.mp4',
        ocrType: 'server',
        uploadName: '中文字幕',
        duration: video.durationSeconds,
        targetFrameRate: 1 / INTERVAL,
        mediaContent: 'captions',
        originalLanguage: 'zh-CN',
      },
      token,
    );
    expect(res.status).toBe(200);
    expect((await fetch(res.body.urls[0], { method: 'PUT', body: await readFile(video.path), headers: { 'content-type': 'video/mp4' } })).status).toBe(200);
    const uploadID = res.body.uploadID as string;
    expect((await stack.api('POST', '/uploadComplete', { uploadID }, token)).status).toBe(200);
    expect((await stack.untilUpload(token, uploadID, { timeoutMs: 400_000, intervalMs: 1_500 })).status).toBe('processed');

    // Each frame's lines against the caption lines it shows.
    const details = (await stack.api('GET', `/getUploadDetails/${uploadID}?mode=captions`, undefined, token)).body;
    expect(details.uploadData).toMatchObject({ originalLanguage: 'zh-CN' });
    const frames = details.results.ocrResults as { t: number; detections: { text: string }[] }[];
    let shown = 0;
    let exact = 0;
    const missed: string[] = [];
    for (const frame of frames) {
      const near = CHINESE_CAPTIONS.some((c) => Math.abs(frame.t - c.startS) < EDGE_S || Math.abs(frame.t - c.endS) < EDGE_S);
      if (near) continue;
      const read = frame.detections.map((d) => unspaced(d.text));
      for (const line of textsAt(video, frame.t)) {
        shown++;
        if (read.includes(unspaced(line))) exact++;
        else missed.push(`${frame.t}: "${line}" read as ${JSON.stringify(frame.detections.map((d) => d.text))}`);
      }
    }
    console.log(`Chinese captions: ${exact} of ${shown} caption lines on ${frames.length} frames read exactly\n${missed.join('\n')}`);
    expect(shown).toBeGreaterThan(40);
    expect(exact / shown).toBeGreaterThanOrEqual(0.9);

    // The API's default SRT export (no box given), as bytes: valid UTF-8 holding the captions as written.
    const srt = await fetch(`${stack.base}/api/uploads/${uploadID}/export?format=srt&view=region`, { headers: { authorization: `Bearer ${token}` } });
    expect(srt.status).toBe(200);
    const bytes = new Uint8Array(await srt.arrayBuffer());
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    expect(Buffer.from(text, 'utf8').equals(Buffer.from(bytes))).toBe(true);
    const cues = parseSrt(text);
    console.log(cues.map((c) => `${c.start} ${c.end} ${c.text}`).join('\n'));
    expect(cues).toHaveLength(CHINESE_CAPTIONS.length);
    let right = 0;
    CHINESE_CAPTIONS.forEach((caption, i) => {
      const cue = cues[i]!;
      if (unspaced(cue.text) === unspaced(caption.text)) right++;
      // A frame is read at each multiple of the interval: the first one showing the caption is at most one interval
      // after it starts, and the first one without it at most one interval after it ends (one video frame of slack).
      expect(Math.abs(cue.start - caption.startS), `start of "${cue.text}"`).toBeLessThanOrEqual(INTERVAL + 0.04);
      expect(Math.abs(cue.end - caption.endS), `end of "${cue.text}"`).toBeLessThanOrEqual(INTERVAL + 0.04);
    });
    expect(right / CHINESE_CAPTIONS.length).toBeGreaterThanOrEqual(0.9);
    expect(text).toContain('记得，老板每天都在看报纸');
  }, 500_000);
});
