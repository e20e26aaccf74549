// Faults injected into the product as `npm start` runs it (one process per service, supervised): processes
// killed with SIGKILL mid-upload, the broker and the database restarted mid-upload. Every upload must still
// finish with every frame exactly once and the credits right, and /api/health must recover.
// Serial: it takes the real ports and restarts the machine's RabbitMQ and PostgreSQL.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chargerValues, makeChargerVideo, type GeneratedVideo } from '@frametext/sample-media';
import { startIsolatedProduct } from '../../scripts/lib/isolated-product.mjs';
import { mailboxMessages } from '../../scripts/lib/mailbox.mjs';
import { apiClient, type UploadStatus } from '../support/client.js';

const base = 'http://localhost:8080';
const SECONDS = 40;
const mediaDir = mkdtempSync(path.join(tmpdir(), 'frametext-faults-media-'));
let product: Awaited<ReturnType<typeof startIsolatedProduct>> | undefined;
const client = apiClient(base, { mail: () => mailboxMessages(path.join(product!.dataDir, 'mailbox')) });
let running: Awaited<ReturnType<typeof startIsolatedProduct>>['running'] | undefined;
let video: GeneratedVideo;

const run = (cmd: string, args: string[]) => execFileSync(cmd, args, { stdio: 'ignore', timeout: 120_000 });
const pgVersion = () => readdirSync('/etc/postgresql').sort().at(-1)!;

beforeAll(async () => {
  video = await makeChargerVideo({ dir: mediaDir, seconds: SECONDS, width: 960, height: 540 });
  product = await startIsolatedProduct('faults_test', {
    LOG_LEVEL: 'warn',
    NODE_ENV: 'test',
    DEMO_SEED: 'false',
    // Retries come back quickly, as they would after a short outage.
    BUS_RETRY_DELAY_MS: '500',
  });
  running = product.running;
}, 180_000);

afterAll(async () => {
  await product?.stop();
  rmSync(mediaDir, { recursive: true, force: true });
}, 120_000);

/** SIGKILL: the process gets no chance to finish anything. */
function kill(service: string): number {
  const child = running!.children.get(service)!;
  const pid = child.pid!;
  child.kill('SIGKILL');
  return pid;
}

async function health(): Promise<{ status: number; services: Record<string, { status: string }> }> {
  try {
    const res = await fetch(`${base}/api/health`);
    return { status: res.status, services: ((await res.json()) as { services: Record<string, { status: string }> }).services };
  } catch {
    return { status: 0, services: {} };
  }
}

/** Uploads the charger video at one frame a second and answers what a person needs to check it afterwards. */
async function startUpload() {
  const { token } = await client.signUp();
  const before = await client.credits(token);
  const uploadID = await client.uploadVideo(token, video.path, { uploadName: 'Charging under faults', fileName: 'charger.mp4', duration: SECONDS, targetFrameRate: 1, mediaContent: 'numerical' });
  return { token, before, uploadID };
}

const progressed = (frames: number) => (s: UploadStatus) => s.framesDone >= frames || s.status === 'processed' || s.status === 'failed';

/** The upload is processed with each second's frame exactly once, its values read, and the frames' cost charged once. */
async function expectCompleteAndPaid(token: string, uploadID: string, before: number) {
  const final = await client.waitFor(token, uploadID);
  expect(final).toMatchObject({ status: 'processed', framesTotal: SECONDS, framesDone: SECONDS });
  const details = (await client.call('GET', `/getUploadDetails/${uploadID}?mode=numerical`, undefined, token)).body;
  const times = (details.results.ocrResults as { t: number }[]).map((f) => f.t);
  expect(times).toEqual(Array.from({ length: SECONDS }, (_, i) => i));
  const read = (details.results.ocrResults as { t: number; detections: { text: string }[] }[]).filter((f) => {
    const text = f.detections.map((d) => d.text).join(' ');
    return text.includes(chargerValues(f.t).battery);
  }).length;
  expect(read / SECONDS).toBeGreaterThanOrEqual(0.9);
  // 40 frames at 0.1 credit: 4 credits, taken once.
  await expect.poll(() => client.credits(token), { timeout: 20_000 }).toBe(before - 4);
  await expect.poll(async () => (await health()).status, { timeout: 60_000 }).toBe(200);
}

describe('a service that dies', () => {
  it('is started again by the supervisor, and /api/health says it is down meanwhile', async () => {
    const oldPid = kill('ocr-cloud');
    await expect.poll(async () => (await health()).services['ocr-cloud']?.status, { timeout: 10_000, interval: 100 }).toBe('unreachable');
    await expect.poll(async () => (await health()).status, { timeout: 30_000 }).toBe(200);
    expect(running!.children.get('ocr-cloud')!.pid).not.toBe(oldPid);
  });
});

describe('an upload under faults', () => {
  it('finishes, every frame once and paid once, when each service is killed while it works on it', { timeout: 300_000 }, async () => {
    const { token } = await client.signUp();
    const before = await client.credits(token);
    const ask = await client.call('POST', '/getUploadURL', { kind: 'video', isVideo: true, mimeType: 'video/mp4', ocrType: 'server', uploadName: 'Charging under faults', fileName: 'charger.mp4', duration: SECONDS, targetFrameRate: 1, mediaContent: 'numerical' }, token);
    expect(ask.status).toBe(200);
    // The upload service dies between handing out the URL and hearing the upload is complete.
    kill('upload');
    const put = await fetch(ask.body.urls[0], { method: 'PUT', body: readFileSync(video.path), headers: { 'content-type': 'video/mp4' } });
    expect(put.status).toBe(200);
    expect((await client.call('POST', '/uploadComplete', { uploadID: ask.body.uploadID }, token)).status).toBe(200);
    const uploadID = ask.body.uploadID as string;
    // Frame extraction dies mid-video, the gateway with it.
    kill('frame-extraction');
    kill('gateway');
    await client.waitFor(token, uploadID, progressed(5));
    kill('ocr-tesseract');
    await client.waitFor(token, uploadID, progressed(15));
    kill('results');
    await client.waitFor(token, uploadID, progressed(25));
    kill('billing');
    kill('identity');
    await expectCompleteAndPaid(token, uploadID, before);
  });

  it('finishes, every frame once and paid once, when RabbitMQ restarts mid-upload', { timeout: 300_000 }, async () => {
    const { token, before, uploadID } = await startUpload();
    await client.waitFor(token, uploadID, progressed(10));
    run('rabbitmqctl', ['stop_app']);
    await new Promise((r) => setTimeout(r, 3_000));
    run('rabbitmqctl', ['start_app']);
    run('rabbitmqctl', ['await_startup']);
    await expectCompleteAndPaid(token, uploadID, before);
  });

  it('finishes, every frame once and paid once, when PostgreSQL restarts mid-upload', { timeout: 300_000 }, async () => {
    const { token, before, uploadID } = await startUpload();
    await client.waitFor(token, uploadID, progressed(10));
    run('pg_ctlcluster', ['--skip-systemctl-redirect', pgVersion(), 'main', 'restart']);
    await expectCompleteAndPaid(token, uploadID, before);
  });
});
