// What a person does with FrameText, against the compose stack's gateway: health, sign-up, a video and a photo
// series through the whole pipeline (real Postgres, RabbitMQ, Ceph's S3 and Tesseract in their containers), a
// simulated purchase, and the web app without source maps.
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chargerValues, makeChargerVideo, makePhotoSeries } from '@frametext/sample-media';
import { apiClient } from '../support/client.js';
import { BASE_URL, UPSTREAM, identityMail } from './stack.js';

const client = apiClient(BASE_URL, { mail: identityMail });
const dir = mkdtempSync(path.join(tmpdir(), 'frametext-it-media-'));
const norm = (s: string) => s.replace(/\s+/g, ' ').trim();

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the compose stack', () => {
  it('reports every service of the registry ready at /api/health', async () => {
    const res = await fetch(`${BASE_URL}/api/health`);
    const body = (await res.json()) as { status: string; services: Record<string, { status: string }> };
    expect(res.status).toBe(200);
    expect(Object.keys(body.services)).toEqual(UPSTREAM);
    for (const [name, s] of Object.entries(body.services)) expect(s.status, name).toBe('ok');
  });

  it('serves the web app, and no source maps', async () => {
    const page = await fetch(`${BASE_URL}/`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    const html = await page.text();
    const script = /<script[^>]+src="([^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeTruthy();
    const js = await (await fetch(new URL(script!, BASE_URL))).text();
    expect(js).not.toContain('sourceMappingURL');
    const map = await fetch(new URL(`${script}.map`, BASE_URL));
    expect(map.status === 404 || !(await map.text()).includes('"mappings"')).toBe(true);
  });

  it('signs a user up with the free credits', async () => {
    const { token } = await client.signUp();
    expect(await client.credits(token)).toBeGreaterThan(0);
  });

  it('processes a video through every container and reads the right text in the right frames', async () => {
    const { token } = await client.signUp();
    const video = await makeChargerVideo({ dir, seconds: 12 });
    const uploadID = await client.uploadVideo(token, video.path, { uploadName: 'Charging in compose', fileName: 'charger.mp4', duration: video.durationSeconds, targetFrameRate: 1 / 3, mediaContent: 'numerical' });
    const final = await client.waitFor(token, uploadID);
    expect(final).toMatchObject({ status: 'processed', framesTotal: 4, framesDone: 4 });
    const details = (await client.call('GET', `/getUploadDetails/${uploadID}?mode=numerical`, undefined, token)).body;
    const frames = details.results.ocrResults as { t: number; detections: { text: string }[] }[];
    expect(frames.map((f) => f.t)).toEqual([0, 3, 6, 9]);
    let found = 0;
    for (const f of frames) {
      const text = norm(f.detections.map((d) => d.text).join('\n'));
      const want = chargerValues(f.t);
      found += [want.battery, want.power, want.elapsed].filter((v) => text.includes(v)).length;
    }
    expect(found / (frames.length * 3)).toBeGreaterThanOrEqual(0.9);
    // The frame images come from the object store through the gateway's presigned URLs.
    const image = await fetch(details.urls[0]);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
  });

  it('returns a photo series in capture order, whatever the file names', async () => {
    const { token } = await client.signUp();
    const photos = await makePhotoSeries({
      dir,
      photos: [
        { name: 'a-last.jpg', lines: ['Third board'], capturedAt: new Date('2024-05-01T10:20:00Z') },
        { name: 'b-first.jpg', lines: ['First board'], capturedAt: new Date('2024-05-01T10:00:00Z'), orientation: 6 },
        { name: 'c-middle.jpg', lines: ['Second board'], capturedAt: new Date('2024-05-01T10:10:00Z') },
      ],
    });
    const files = photos.map((p) => ({ name: p.name, type: 'image/jpeg', lastModified: Date.parse('2024-06-01T00:00:00Z') }));
    const ask = await client.call('POST', '/getUploadURL', { kind: 'photos', isVideo: false, mimeType: 'image/jpeg', files, sortPreference: 'timestamp', uploadName: 'Whiteboards', ocrType: 'server', mediaContent: 'numerical' }, token);
    expect(ask.status).toBe(200);
    for (const [i, p] of photos.entries()) {
      const put = await fetch(ask.body.urls[i], { method: 'PUT', body: await readFile(p.path), headers: { 'content-type': 'image/jpeg' } });
      expect(put.status).toBe(200);
    }
    expect((await client.call('POST', '/uploadComplete', { uploadID: ask.body.uploadID }, token)).status).toBe(200);
    expect(await client.waitFor(token, ask.body.uploadID)).toMatchObject({ status: 'processed', framesTotal: 3 });
    const details = (await client.call('GET', `/getUploadDetails/${ask.body.uploadID}?mode=numerical`, undefined, token)).body;
    const texts = details.results.ocrResults.map((f: { detections: { text: string }[] }) => norm(f.detections.map((d) => d.text).join(' ')));
    expect(texts[0]).toContain('First board');
    expect(texts[1]).toContain('Second board');
    expect(texts[2]).toContain('Third board');
  });

  it('credits a simulated purchase once, however often it is paid', async () => {
    const { token } = await client.signUp();
    const before = await client.credits(token);
    const checkout = await client.call('POST', '/create-checkout-session', { credits: 100 }, token);
    expect(checkout.status).toBe(200);
    const page = new URL(checkout.body.url as string);
    expect(page.origin).toBe(new URL(BASE_URL).origin);
    const sessionId = page.pathname.split('/').at(-1)!;
    const pay = () => fetch(`${page.href}/pay`, { method: 'POST', body: '', headers: { 'content-type': 'application/x-www-form-urlencoded' }, redirect: 'manual' });
    const paid = await pay();
    expect(paid.status).toBe(303);
    expect(paid.headers.get('location')).toContain(`session_id=${sessionId}`);
    await expect.poll(() => client.credits(token), { timeout: 20_000 }).toBe(before + 100);
    expect((await pay()).status).toBe(303);
    const session = await client.call('GET', `/checkout-sessions/${sessionId}`, undefined, token);
    expect(session.body).toMatchObject({ status: 'credited' });
    await new Promise((r) => setTimeout(r, 2_000));
    expect(await client.credits(token)).toBe(before + 100);
  });
});
