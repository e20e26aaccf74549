// Brings a fresh Debian/Ubuntu machine (Node 20, root) to the point where FrameText can build and run:
// OS packages, PostgreSQL and RabbitMQ running, pnpm, dependencies, a build. Every step checks first, so a
// second run only verifies.
import { existsSync, readFileSync } from 'node:fs';
import { TESSERACT_MODELS, TESSERACT_PACKAGES } from '../../packages/contracts/src/languages.js';
import { check, fail, has, log, portOpen, run, waitFor } from './sh.mjs';

export const PNPM_VERSION = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).packageManager.split('@')[1];
const isRoot = process.getuid?.() === 0;

/** Debian packages by purpose; `test` adds what the test suite needs on top of the runtime. */
const RUNTIME_PACKAGES = [
  { bin: 'tesseract', pkg: ['tesseract-ocr', 'tesseract-ocr-eng'] },
  { bin: 'ffmpeg', pkg: ['ffmpeg'] },
  { bin: 'ffprobe', pkg: ['ffmpeg'] },
  // Videos by link are fetched with Debian's yt-dlp (the upload service runs it).
  { bin: 'yt-dlp', pkg: ['yt-dlp'] },
  // The demo upload and the test media are drawn with ffmpeg's drawtext in DejaVu fonts.
  { file: '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf', pkg: ['fonts-dejavu-core'] },
  // Chinese test media and the bench's Chinese captions are drawn in WenQuanYi's fonts (about 21 MB installed).
  { file: '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc', pkg: ['fonts-wqy-microhei', 'fonts-wqy-zenhei'] },
];
const TEST_PACKAGES = [
  { bin: 'chromium', pkg: ['chromium'] },
  { bin: 'docker-compose', pkg: ['docker-compose'] },
  // docs/scripting.md's curl and Python examples run as written (test/pipeline/scripting.test.ts).
  { bin: 'curl', pkg: ['curl'] },
  { bin: 'jq', pkg: ['jq'] },
  { bin: 'python3', pkg: ['python3'] },
  // promtool checks deploy/monitoring's Prometheus config and alert rules.
  { bin: 'promtool', pkg: ['prometheus'] },
  // A single-node Ceph RADOS Gateway: the real S3 server the s3 storage driver is tested against.
  // Optional: where it cannot be installed the s3 tests say so and are skipped.
  { bin: 'radosgw', pkg: ['radosgw', 'ceph-mon', 'ceph-osd', 'ceph-common'], optional: true },
];

let aptUpdated = false;
async function aptInstall(packages) {
  if (!isRoot) fail(`missing system packages: ${packages.join(' ')}. Install them (sudo apt-get install -y ${packages.join(' ')}) and run again.`);
  if (!has('apt-get')) fail(`missing system packages ${packages.join(' ')} and no apt-get here: install them with your OS package manager.`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) {
    log('apt-get update');
    await run('apt-get', ['update', '-qq'], { env });
    aptUpdated = true;
  }
  log(`installing ${packages.join(' ')}`);
  await run('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], { env });
}

export async function ensureBinaries(list) {
  const present = (p) => (p.file ? existsSync(p.file) : has(p.bin));
  const missing = [...new Set(list.filter((p) => !p.optional && !present(p)).flatMap((p) => p.pkg))];
  if (missing.length) await aptInstall(missing);
  for (const optional of list.filter((p) => p.optional && !present(p))) {
    if (!isRoot || !has('apt-get')) {
      log(`optional packages ${optional.pkg.join(' ')} are not installed; the tests that need them will say so and skip`);
      continue;
    }
    await aptInstall(optional.pkg).catch((err) => log(`optional packages ${optional.pkg.join(' ')} not installed (${err.message}); the tests that need them will say so and skip`));
  }
  await ensureTesseractModels();
}

/** The Basic engine reads each language of the language list with its own model: install those not yet there. */
async function ensureTesseractModels() {
  if (!has('tesseract')) return;
  const installed = new Set(check('tesseract', ['--list-langs']).out.split('\n').map((l) => l.trim()));
  const missing = TESSERACT_PACKAGES.filter((_, i) => !installed.has(TESSERACT_MODELS[i]));
  if (missing.length) await aptInstall(missing);
}

function dbUrl() {
  return process.env.DATABASE_URL ?? 'postgres://postgres:postgres@127.0.0.1:5432/frametext';
}

async function ensurePostgres() {
  const url = new URL(dbUrl());
  const port = Number(url.port || 5432);
  const local = ['127.0.0.1', 'localhost', '::1'].includes(url.hostname);
  if (!(await portOpen(port, url.hostname))) {
    if (!local) fail(`PostgreSQL at ${url.host} is not reachable; check DATABASE_URL.`);
    if (!has('pg_ctlcluster') && !existsSync('/usr/lib/postgresql')) await aptInstall(['postgresql']);
    log('starting PostgreSQL');
    const versions = check('ls', ['/etc/postgresql']).out.trim().split(/\s+/).filter(Boolean);
    if (!versions.length) fail('PostgreSQL is installed but has no cluster in /etc/postgresql; create one with pg_createcluster.');
    const version = versions.sort().at(-1);
    await run('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start']).catch(() => run('pg_ctlcluster', [version, 'main', 'start']));
    await waitFor('PostgreSQL', () => portOpen(port, url.hostname), 60_000);
  }
  // A fresh Debian cluster asks TCP clients for a password: give the postgres role the one in DATABASE_URL.
  if (local && has('psql')) {
    const probe = check('psql', [dbUrlFor(url, 'postgres'), '-Atc', 'select 1'], { env: { ...process.env, PGCONNECT_TIMEOUT: '5' } });
    if (!probe.ok && /password|authentication/i.test(probe.out) && isRoot && url.username === 'postgres' && url.password) {
      log('setting the password of the postgres database role from DATABASE_URL');
      const sql = `alter user postgres password '${decodeURIComponent(url.password).replace(/'/g, "''")}'`;
      await run('runuser', ['-u', 'postgres', '--', 'psql', '-qc', sql]);
    }
  }
}

function dbUrlFor(url, database) {
  const u = new URL(url.toString());
  u.pathname = `/${database}`;
  return u.toString();
}

async function ensureRabbit() {
  const url = new URL(process.env.RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672');
  const port = Number(url.port || 5672);
  if (await portOpen(port, url.hostname)) return;
  if (!['127.0.0.1', 'localhost', '::1'].includes(url.hostname)) fail(`RabbitMQ at ${url.host} is not reachable; check RABBITMQ_URL.`);
  if (!has('rabbitmq-server')) await aptInstall(['rabbitmq-server']);
  // Queue depths for Prometheus on 15692, as the containers serve them. Only for a broker this script starts: one
  // already running is left as its owner configured it. The broker sizes its memory watermark from this machine.
  const plugin = check('rabbitmq-plugins', ['enable', '--offline', 'rabbitmq_prometheus']);
  if (!plugin.ok) log(`RabbitMQ's Prometheus endpoint stays off: ${plugin.out.trim().split('\n').pop()}`);
  log('starting RabbitMQ');
  await run('rabbitmq-server', ['-detached']);
  await waitFor('RabbitMQ', () => portOpen(port, url.hostname), 120_000);
}

async function ensurePnpm() {
  const current = check('pnpm', ['--version']);
  if (current.ok && current.out.trim() === PNPM_VERSION) return;
  log(`installing pnpm ${PNPM_VERSION}`);
  // --force replaces whatever answers to `pnpm` but is not this version, such as a shim `corepack enable` left.
  await run('npm', ['install', '-g', '--force', '--no-fund', '--no-audit', `pnpm@${PNPM_VERSION}`]);
}

export async function installAndBuild({ build = true } = {}) {
  log('installing dependencies');
  await run('pnpm', ['install', '--frozen-lockfile', '--reporter=append-only'], { env: { ...process.env, CI: 'true' } });
  if (!build) return;
  log('building');
  await run('pnpm', ['run', 'build']);
}

/**
 * Everything `npm start` and the tests need, checked in order. `build: false` is for tests that run the TypeScript
 * sources (the unit and service tests): the build would only check the types the typecheck checks.
 */
export async function provision({ forTests = false, build = true } = {}) {
  const major = Number(process.versions.node.split('.')[0]);
  if (major < 20) fail(`Node 20 or newer is required (this is ${process.version}).`);
  await ensureBinaries(forTests ? [...RUNTIME_PACKAGES, ...TEST_PACKAGES] : RUNTIME_PACKAGES);
  await ensurePostgres();
  await ensureRabbit();
  await ensurePnpm();
  await installAndBuild({ build });
}
