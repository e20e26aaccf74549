// A soak of the compose stack with three OCR workers: a bounded burst of mixed uploads from many accounts, sent in
// waves, with RabbitMQ restarted after the second wave and Postgres after the third. Every upload must end processed
// (or failed with a sentence a person can read, for the broken files among them), every account's credits must
// balance against billing's ledger, and once the accounts have deleted their data and pruning has run, the rows left
// and the database's size must be back near where they were before the burst. Prints the run's figures.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeChargerVideo, makePhotoSeries, type GeneratedPhoto, type GeneratedVideo } from '@frametext/sample-media';
import { eventually, uniqueName } from '@frametext/service-kit/testing';
import { confirmEmail } from '../../scripts/lib/mailbox.mjs';
import { apiClient, type UploadStatus } from '../support/client.js';
import { BASE_URL, SERVICE_SCHEMAS, containersOf, health, identityMail, postgres, sql } from './stack.js';

const client = apiClient(BASE_URL, { mail: identityMail });
const dir = mkdtempSync(path.join(tmpdir(), 'frametext-it-soak-'));
const PROJECT = process.env.IT_PROJECT ?? '';

const ACCOUNTS = 20;
const UPLOADS = 200;
const WAVES = 4;
/** Requests sent at once while a wave is submitted. */
const SUBMIT_CONCURRENCY = 6;
const PASSWORD = 'soak-tests-pass-1';
/** Server OCR's price (contracts' CREDIT_RATES.server): credits are ceil(frames x rate). */
const SERVER_RATE = 0.1;
const cost = (frames: number) => Math.max(0, Math.ceil(frames * SERVER_RATE - 1e-9));

const podman = (args: string[]) => execFileSync('podman', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });

/** Runs `fn` over `items` with at most `limit` at a time. */
async function pool<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await fn(items[i]!, i);
      }
    }),
  );
  return out;
}

// ── the database ─────────────────────────────────────────────────────────────────────────────────────────
/** Exact row counts of every table of the services' schemas. */
function rowCounts(): Map<string, number> {
  const tables = sql(`select schemaname || '.' || tablename from pg_tables where schemaname in (${SERVICE_SCHEMAS.map((s) => `'${s}'`).join(', ')}) order by 1`).map((r) => r[0]!);
  const counts = sql(tables.map((t) => `select '${t}', count(*) from ${t}`).join(' union all '));
  return new Map(counts.map(([t, n]) => [t!, Number(n)]));
}

/**
 * Tables that keep rows after deletion by design, with no text of the deleted data (docs/operations.md, Data that
 * ends): message ids in the inboxes (INBOX_RETENTION_HOURS, at least 2), billing's books, upload's id-only rows and
 * its list of deleted uploads, the uploads the workers were told are deleted (7 days), the deleted accounts'
 * tombstones, request budgets and rate-limit counters, and identity's own rows (sessions and tombstones, pruned
 * hourly once the ended sessions' feed no longer lists them). Every other table (results' uploads, frames, text
 * and tombstones, the outboxes) must be back to its rows before the burst.
 */
const KEPT_NAMES = /\.(inbox|ledger|reservations|accounts|cancelled_uploads|deleted_uploads|deleted_users|request_budgets|api_token_budgets|rate_limit_counters|known_login_addresses|login_failures|knex_migrations[a-z_]*)$/;
const kept = (table: string) => table !== 'identity.outbox' && (KEPT_NAMES.test(table) || table === 'upload.uploads' || table.startsWith('identity.'));

const databaseSize = () => Number(sql('select pg_database_size(current_database())')[0]![0]);
const vacuum = (full = false) => sql(full ? 'vacuum full' : 'vacuum');

// ── CPU time of the containers (cgroup counters, read inside each container) ────────────────────────────────
/** Cumulative CPU microseconds of each running container of the project, by container id. */
function cpuNow(): Map<string, { service: string; usec: number }> {
  const lines = podman(['ps', '--filter', `label=com.docker.compose.project=${PROJECT}`, '--format', '{{.ID}} {{.Labels}}']).trim().split('\n').filter(Boolean);
  const out = new Map<string, { service: string; usec: number }>();
  for (const line of lines) {
    const id = line.split(' ')[0]!;
    const service = /com\.docker\.compose\.service:([\w-]+)/.exec(line)?.[1] ?? id;
    try {
      const text = podman(['exec', id, 'sh', '-c', 'cat /sys/fs/cgroup/cpu.stat 2>/dev/null || cat /sys/fs/cgroup/cpuacct/cpuacct.usage 2>/dev/null || cat /sys/fs/cgroup/cpu,cpuacct/cpuacct.usage']);
      const v2 = /usage_usec (\d+)/.exec(text);
      out.set(id, { service, usec: v2 ? Number(v2[1]) : Number(text.trim()) / 1000 });
    } catch {
      // A container without a shell or a readable counter is left out of the figures.
    }
  }
  return out;
}

/** CPU seconds per service between marks (a restarted container's counter starts again at zero). */
class CpuMeter {
  private from = cpuNow();
  readonly seconds = new Map<string, number>();
  /** Adds the time since the last mark, except for `restarted`, whose counter began again meanwhile. */
  mark(restarted?: string): void {
    const now = cpuNow();
    for (const [id, then] of this.from) {
      const later = now.get(id);
      if (later && id !== restarted && later.usec >= then.usec) this.seconds.set(then.service, (this.seconds.get(then.service) ?? 0) + (later.usec - then.usec) / 1e6);
    }
    this.from = now;
  }
}

// ── accounts ────────────────────────────────────────────────────────────────────────────────────────────────
interface Account {
  email: string;
  refreshToken: string;
  token: string;
  tokenAt: number;
  refreshing?: Promise<void>;
}

async function signUp(): Promise<Account> {
  const email = `${uniqueName('soak')}@example.com`;
  const res = await client.call('POST', '/auth/signup', { email, password: PASSWORD });
  if (res.status !== 201) throw new Error(`sign-up failed: ${res.status} ${JSON.stringify(res.body)}`);
  await confirmEmail(BASE_URL, email, identityMail, 60_000);
  const account: Account = { email, refreshToken: res.body.refreshToken, token: res.body.idToken, tokenAt: Date.now() };
  await eventually(async () => ((await client.credits(account.token)) > 0 ? true : undefined), 30_000, 200, `free credits of ${email}`);
  return account;
}

/** The account's access token, refreshed well before its lifetime (ACCESS_TOKEN_TTL_SECONDS) ends. */
async function tokenOf(a: Account): Promise<string> {
  if (Date.now() - a.tokenAt > 4 * 60_000) {
    a.refreshing ??= (async () => {
      const res = await client.call('POST', '/auth/refresh', { refreshToken: a.refreshToken });
      if (res.status !== 200) throw new Error(`refresh of ${a.email}: ${res.status} ${JSON.stringify(res.body)}`);
      Object.assign(a, { token: res.body.idToken, refreshToken: res.body.refreshToken, tokenAt: Date.now() });
    })().finally(() => {
      a.refreshing = undefined;
    });
    await a.refreshing;
  }
  return a.token;
}

// ── the uploads ─────────────────────────────────────────────────────────────────────────────────────────────
type Kind = { kind: 'video'; video: GeneratedVideo } | { kind: 'photos'; photos: GeneratedPhoto[] } | { kind: 'broken'; file: string };

interface Planned {
  index: number;
  account: number;
  media: Kind;
  /** Frames it should have once processed (none for a broken file). */
  frames: number;
  id?: string;
  final?: UploadStatus;
}

let smallVideos: GeneratedVideo[];
let largeVideo: GeneratedVideo;
let photoSets: GeneratedPhoto[][];
let brokenFile: string;

/** Mostly small: short videos at 1 frame a second and series of 2-3 photos; two long videos; five broken files. */
function plan(): Planned[] {
  return Array.from({ length: UPLOADS }, (_, index) => {
    const account = index % ACCOUNTS;
    if (index === 50 || index === 150) return { index, account, media: { kind: 'video', video: largeVideo }, frames: largeVideo.durationSeconds };
    if (index % 40 === 39) return { index, account, media: { kind: 'broken', file: brokenFile }, frames: 0 };
    if (index % 10 < 6) {
      const video = smallVideos[index % smallVideos.length]!;
      return { index, account, media: { kind: 'video', video }, frames: video.durationSeconds };
    }
    const photos = photoSets[index % photoSets.length]!;
    return { index, account, media: { kind: 'photos', photos }, frames: photos.length };
  });
}

/** getUploadURL, the PUTs and uploadComplete, as the app does; answers the upload id. */
async function submit(p: Planned, token: () => Promise<string>): Promise<string> {
  const m = p.media;
  const request =
    m.kind === 'photos'
      ? { kind: 'photos', isVideo: false, mimeType: 'image/jpeg', files: m.photos.map((ph) => ({ name: ph.name, type: 'image/jpeg', lastModified: ph.capturedAt.getTime() })), sortPreference: 'timestamp' }
      : { kind: 'video', isVideo: true, mimeType: 'video/mp4', fileName: `soak-${p.index}.mp4`, duration: m.kind === 'video' ? m.video.durationSeconds : 5, targetFrameRate: 1 };
  const ask = await client.call('POST', '/getUploadURL', { ocrType: 'server', mediaContent: 'numerical', uploadName: `soak ${p.index}`, ...request }, await token());
  if (ask.status !== 200) throw new Error(`getUploadURL of upload ${p.index}: ${ask.status} ${JSON.stringify(ask.body)}`);
  const files = m.kind === 'photos' ? m.photos.map((ph) => ph.path) : [m.kind === 'video' ? m.video.path : m.file];
  for (const [i, file] of files.entries()) {
    const put = await fetch(ask.body.urls[i], { method: 'PUT', body: await readFile(file), headers: { 'content-type': m.kind === 'photos' ? 'image/jpeg' : 'video/mp4' } });
    if (put.status !== 200) throw new Error(`PUT of upload ${p.index}: ${put.status}`);
  }
  const done = await client.call('POST', '/uploadComplete', { uploadID: ask.body.uploadID }, await token());
  // A broken file may be refused here already; the upload then ends failed, which the test checks below.
  if (done.status !== 200 && m.kind !== 'broken') throw new Error(`uploadComplete of upload ${p.index}: ${done.status} ${JSON.stringify(done.body)}`);
  return ask.body.uploadID as string;
}

/** A sentence for a person: words, not a stack trace, an error code or an internal address. */
const readable = (reason: string | null | undefined) => typeof reason === 'string' && /^[\p{L}\p{N}"“][^\n]{10,}$/u.test(reason) && !/(Error:|ECONN|errno|at .+:\d+|undefined|\[object|amqp|postgres:\/\/)/i.test(reason);

/** Waits until the broker answers again and every service reports it connected at /api/health. */
async function brokerBack(): Promise<void> {
  await eventually(() => (podmanOk(['exec', containersOf('rabbitmq')[0]!.id, 'rabbitmq-diagnostics', '-q', 'check_port_connectivity']) ? true : undefined), 180_000, 2_000, 'RabbitMQ after its restart');
  await eventually(async () => (healthy(await health(), /rabbit|broker|bus/i) ? true : undefined), 180_000, 2_000, 'every service connected to the broker again');
}

async function databaseBack(): Promise<void> {
  await eventually(() => (podmanOk(['exec', postgres().id, 'pg_isready', '-U', 'frametext', '-d', 'frametext']) ? true : undefined), 180_000, 2_000, 'Postgres after its restart');
  await eventually(async () => (healthy(await health(), /postgres|database|db/i) ? true : undefined), 180_000, 2_000, 'every service ready on the database again');
}

function podmanOk(args: string[]): boolean {
  try {
    podman(args);
    return true;
  } catch {
    return false;
  }
}

/** Every service ready, and each of its checks whose name matches `check` ok. */
function healthy(h: { status: number; body: any }, check: RegExp): boolean {
  if (h.status !== 200 || !h.body?.services) return false;
  return Object.values(h.body.services as Record<string, { status: string; checks?: Record<string, unknown> }>).every((s) => {
    if (s.status !== 'ok') return false;
    return Object.entries(s.checks ?? {})
      .filter(([name]) => check.test(name))
      .every(([, v]) => (typeof v === 'string' ? v === 'ok' : (v as { status?: string })?.status === 'ok'));
  });
}

const fmtMiB = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;

beforeAll(async () => {
  smallVideos = await Promise.all([3, 4, 5, 6].map((seconds) => makeChargerVideo({ dir, name: `small-${seconds}.mp4`, seconds, width: 640, height: 360, fps: 5 })));
  largeVideo = await makeChargerVideo({ dir, name: 'large.mp4', seconds: 60, width: 640, height: 360, fps: 5 });
  photoSets = [];
  for (const count of [2, 3]) {
    const sub = mkdtempSync(path.join(dir, `photos-${count}-`));
    photoSets.push(await makePhotoSeries({ dir: sub, photos: Array.from({ length: count }, (_, i) => ({ name: `board-${i}.jpg`, lines: [`Board ${i + 1}`, `Total ${100 + 7 * i}`], capturedAt: new Date(Date.UTC(2024, 4, 1, 10, i)) })) }));
  }
  brokenFile = path.join(dir, 'broken.mp4');
  writeFileSync(brokenFile, Buffer.from('this is not a video at all, only a few words in a file named .mp4\n'.repeat(64)));
}, 300_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('soak: a burst of uploads from many accounts, across a broker and a database restart', () => {
  it('ends every upload, balances every account, and leaves the database near where it started', { timeout: 1_800_000 }, async () => {
    const started = Date.now();
    expect(containersOf('ocr-tesseract')).toHaveLength(3);

    const accounts = await pool(Array.from({ length: ACCOUNTS }), 4, () => signUp());
    const startBalance = await Promise.all(accounts.map(async (a) => client.credits(await tokenOf(a))));

    // Before the burst: the database's settled size and each table's rows.
    vacuum(true);
    const sizeBefore = databaseSize();
    const rowsBefore = rowCounts();
    const cpu = new CpuMeter();
    const burstStarted = Date.now();

    const uploads = plan();
    const waves = Array.from({ length: WAVES }, (_, w) => uploads.filter((u) => Math.floor((u.index * WAVES) / UPLOADS) === w));
    const sendWave = (wave: Planned[]) =>
      pool(wave, SUBMIT_CONCURRENCY, async (p) => {
        p.id = await submit(p, () => tokenOf(accounts[p.account]!));
      });

    await sendWave(waves[0]!);
    await sendWave(waves[1]!);
    // The broker goes down with the first two waves' frames in its queues.
    const rabbitmq = containersOf('rabbitmq')[0]!;
    cpu.mark();
    podman(['restart', rabbitmq.id]);
    await brokerBack();
    cpu.mark(rabbitmq.id);
    await sendWave(waves[2]!);
    // Postgres goes down with the third wave being extracted and read.
    const database = postgres();
    cpu.mark();
    podman(['restart', database.id]);
    await databaseBack();
    cpu.mark(database.id);
    await sendWave(waves[3]!);

    // Every upload ends: each account's list until none of its uploads is on its way, then each one's status.
    await pool(accounts, 4, async (a, i) => {
      const mine = new Set(uploads.filter((u) => u.account === i).map((u) => u.id!));
      await eventually(
        async () => {
          const res = await client.call('GET', '/getUploads', undefined, await tokenOf(a));
          if (res.status !== 200) return undefined;
          const open = (res.body.data.uploads as { id: string; status: string }[]).filter((u) => mine.has(u.id) && u.status !== 'processed' && u.status !== 'failed');
          const listed = (res.body.data.uploads as { id: string }[]).filter((u) => mine.has(u.id)).length;
          return listed === mine.size && open.length === 0 ? true : undefined;
        },
        1_500_000,
        3_000,
        `the uploads of account ${i} to end`,
      );
    });
    const burstSeconds = (Date.now() - burstStarted) / 1000;
    cpu.mark();
    for (const p of uploads) p.final = await client.status(await tokenOf(accounts[p.account]!), p.id!);

    // Processed with every frame, or (a broken file) failed with a sentence a person can read.
    for (const p of uploads) {
      const story = `upload ${p.index} (${p.media.kind}, ${p.id})`;
      if (p.media.kind === 'broken') {
        expect(p.final?.status, story).toBe('failed');
        expect(readable(p.final?.failureReason), `${story}: ${p.final?.failureReason}`).toBe(true);
      } else {
        expect(p.final, story).toMatchObject({ status: 'processed', framesTotal: p.frames, framesDone: p.frames });
      }
    }
    const sizePeak = databaseSize();

    // Credits: each upload's hold settled as ceil(frames read x rate) taken and the rest given back, and each
    // account's balance its start minus what was taken, which is also the sum of its ledger.
    const ids = uploads.map((p) => `'${p.id}'`).join(', ');
    const reservations = await eventually(
      () => {
        const rows = sql(`select upload_id, status, credits_reserved, credits_captured, credits_released from billing.reservations where upload_id in (${ids})`);
        return rows.length === uploads.length && rows.every((r) => r[1] === 'settled') ? rows : undefined;
      },
      120_000,
      2_000,
      'every reservation settled',
    );
    const byUpload = new Map(reservations.map(([id, , reserved, captured, released]) => [id!, { reserved: Number(reserved), captured: Number(captured), released: Number(released) }]));
    for (const p of uploads) {
      const r = byUpload.get(p.id!)!;
      const story = `credits of upload ${p.index} (${p.media.kind}, ${p.id})`;
      expect(r.captured + r.released, story).toBe(r.reserved);
      expect(r.captured, story).toBe(cost(p.final?.status === 'processed' ? p.final.framesDone : 0));
    }
    for (const [i, a] of accounts.entries()) {
      const taken = uploads.filter((p) => p.account === i).reduce((sum, p) => sum + byUpload.get(p.id!)!.captured, 0);
      await eventually(async () => ((await client.credits(await tokenOf(a))) === startBalance[i]! - taken ? true : undefined), 60_000, 500, `balance of account ${i}`);
      const ledger = sql(`select coalesce(sum(l.balance_delta), 0), max(a.balance) from billing.ledger l join billing.accounts a using (user_id) where a.email = '${a.email}'`)[0]!;
      expect(Number(ledger[0]), `ledger of account ${i}`).toBe(startBalance[i]! - taken);
      expect(Number(ledger[1]), `balance row of account ${i}`).toBe(startBalance[i]! - taken);
    }

    // The accounts delete their data: half their uploads, half themselves.
    await pool(accounts, 4, async (a, i) => {
      if (i % 2 === 0) {
        const mine = uploads.filter((u) => u.account === i).map((u) => u.id!);
        const res = await client.call('POST', '/deleteUploads', { uploads: mine, deleteUploads: true }, await tokenOf(a));
        expect(res.status).toBe(200);
        expect([...res.body.data.deleted].sort()).toEqual([...mine].sort());
      } else {
        await tokenOf(a);
        const res = await client.call('POST', '/auth/delete-account', { refreshToken: a.refreshToken, password: PASSWORD });
        expect(res.status, `delete-account of ${i}: ${JSON.stringify(res.body)}`).toBe(204);
      }
    });

    // Pruning: wait until every table that holds deleted data is back to its rows before the burst.
    const rowsAfter = await eventually(
      () => {
        const now = rowCounts();
        const over = [...now].filter(([t, n]) => !kept(t) && n > (rowsBefore.get(t) ?? 0));
        return over.length === 0 ? now : undefined;
      },
      600_000,
      5_000,
      'the deleted data to leave every table',
    ).catch((err: Error) => {
      const now = rowCounts();
      const over = [...now].filter(([t, n]) => !kept(t) && n > (rowsBefore.get(t) ?? 0)).map(([t, n]) => `${t} ${rowsBefore.get(t) ?? 0} -> ${n}`);
      throw new Error(`${err.message}; tables above their rows before the burst: ${over.join(', ')}`);
    });
    vacuum();
    const sizeAfterVacuum = databaseSize();
    vacuum(true);
    const sizeAfterFull = databaseSize();

    const keptGrowth = [...rowsAfter].filter(([t]) => kept(t)).map(([t, n]) => [t, n - (rowsBefore.get(t) ?? 0)] as const).filter(([, d]) => d > 0);
    const keptRows = keptGrowth.reduce((s, [, d]) => s + d, 0);
    // Near: what the kept id-only rows take (a generous 1 KiB each with their indexes) plus 1 MiB of page slack.
    const near = sizeBefore + keptRows * 1024 + 1048576;

    const frames = uploads.reduce((s, p) => s + (p.final?.status === 'processed' ? p.final.framesDone : 0), 0);
    const failed = uploads.filter((p) => p.final?.status === 'failed');
    const cpuLine = [...cpu.seconds].sort((a, b) => b[1] - a[1]).map(([service, s]) => `${service} ${s.toFixed(0)} s`);
    const perFrame = (service: string) => ((cpu.seconds.get(service) ?? 0) / frames).toFixed(3);
    const total = [...cpu.seconds.values()].reduce((s, v) => s + v, 0);
    console.log(
      [
        '',
        '── soak figures',
        `uploads        ${uploads.length} from ${ACCOUNTS} accounts in ${WAVES} waves (RabbitMQ restarted after wave 2, Postgres after wave 3)`,
        `processed      ${uploads.length - failed.length}, ${frames} frames`,
        `failed         ${failed.length}: ${[...new Set(failed.map((p) => p.final?.failureReason))].join(' | ')}`,
        `wall time      burst ${burstSeconds.toFixed(0)} s (${(frames / burstSeconds).toFixed(2)} frames/s), whole test ${((Date.now() - started) / 1000).toFixed(0)} s`,
        `CPU            ${cpuLine.join(', ')}; total ${total.toFixed(0)} s`,
        `CPU per frame  ocr-tesseract ${perFrame('ocr-tesseract')} s, frame-extraction ${perFrame('frame-extraction')} s, results ${perFrame('results')} s, postgres ${perFrame('postgres')} s, rabbitmq ${perFrame('rabbitmq')} s, all ${(total / frames).toFixed(3)} s`,
        `DB size        before ${fmtMiB(sizeBefore)} (VACUUM FULL), after the burst ${fmtMiB(sizePeak)}, after deletion and pruning ${fmtMiB(sizeAfterVacuum)} (VACUUM), ${fmtMiB(sizeAfterFull)} (VACUUM FULL); near = ${fmtMiB(near)}`,
        `rows left      ${keptRows} more in kept tables: ${keptGrowth.map(([t, d]) => `${t} +${d}`).join(', ')}`,
        '',
      ].join('\n'),
    );
    expect(sizeAfterFull).toBeLessThanOrEqual(near);
  });
});
