// `npm run test:containers`: the product as operators run it, in containers on this machine. Builds the local
// base images and every service image from deploy/Dockerfile, starts docker-compose.yml with
// docker-compose.local.yml (only the infrastructure images swapped for local ones), waits for every health check,
// runs the integration suite against the compose gateway, scales the OCR workers to three and kills one
// mid-upload, restarts every service on a schema a newer release migrated (a rollback), with IT_SOAK=1 runs the
// soak test (a burst of uploads across a broker and a database restart, then deletion and pruning), then `down -v`
// and checks that nothing is left. Prints the time of each stage.
//
// Engine: podman (Debian's), driven by Debian's docker-compose 1.29 through podman's Docker-compatible API
// socket; see deploy/README.md for why, and for running the same files with Docker.
// Settings (environment): IT_GATEWAY_PORT (default 18080), IT_KEEP_STACK=1 to leave the stack up at the end,
// IT_SOAK=1 to add the soak stage (about 4 minutes more; its figures feed docs/operations.md#capacity).
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildLocalImages, LOCAL_IMAGES } from './lib/local-images.mjs';
import { ensureBinaries } from './lib/provision.mjs';
import { ROOT, SERVICES } from './lib/services.mjs';
import { check, fail, log, run, waitFor } from './lib/sh.mjs';

const PROJECT = 'frametext-it';
const TAG = 'local';
const GATEWAY_PORT = process.env.IT_GATEWAY_PORT ?? '18080';
const BASE_URL = `http://localhost:${GATEWAY_PORT}`;
/**
 * What the host needs: podman with netavark (DNS on internal networks) and the iptables it sets up bridges with (Debian's
 * netavark does not pull it in), runc, compose, debootstrap; ffmpeg for the test media.
 */
const HOST_PACKAGES = [
  { bin: 'podman', pkg: ['podman', 'uidmap', 'slirp4netns', 'fuse-overlayfs'] },
  { bin: 'runc', pkg: ['runc'] },
  { file: '/usr/lib/podman/netavark', pkg: ['netavark'] },
  { file: '/usr/lib/podman/aardvark-dns', pkg: ['aardvark-dns'] },
  { bin: 'iptables', pkg: ['iptables'] },
  { bin: 'docker-compose', pkg: ['docker-compose'] },
  { bin: 'debootstrap', pkg: ['debootstrap'] },
  { bin: 'ffmpeg', pkg: ['ffmpeg'] },
  { file: '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf', pkg: ['fonts-dejavu-core'] },
];

const timings = [];
const started = Date.now();
const secs = (ms) => `${Math.round(ms / 1000)} s`;

async function stage(name, fn) {
  const t = Date.now();
  log(`── ${name}`);
  try {
    return await fn();
  } finally {
    timings.push([name, Date.now() - t]);
    log(`── ${name}: ${secs(Date.now() - t)}`);
  }
}

function printTimings(outcome) {
  console.log(`\nContainer integration run ${outcome} in ${secs(Date.now() - started)}:`);
  for (const [name, ms] of timings) console.log(`  ${name.padEnd(40)} ${secs(ms).padStart(7)}`);
}

// ── podman's settings and its Docker-compatible API, for docker-compose ─────────────────────────────────────
const runDir = mkdtempSync(path.join(tmpdir(), 'frametext-it-'));
const socket = path.join(runDir, 'podman.sock');
const CONTAINERS_CONF = path.join(runDir, 'containers.conf');
// Every podman this script starts (builds included) reads the run's own settings, not /etc/containers.
process.env.CONTAINERS_CONF = CONTAINERS_CONF;

/**
 * deploy/local/containers.conf plus a seccomp profile: podman's default one with io_pgetevents allowed. Podman 4.3
 * (Debian 12) denies that system call, which Debian 13's libaio uses for io_getevents, and Ceph's OSD aborts on
 * the refusal. Docker's default profile allows it.
 */
function writeEngineSettings() {
  const profile = JSON.parse(readFileSync('/usr/share/containers/seccomp.json', 'utf8'));
  for (const rule of profile.syscalls) if (rule.action !== 'SCMP_ACT_ALLOW') rule.names = rule.names.filter((n) => n !== 'io_pgetevents');
  profile.syscalls = profile.syscalls.filter((rule) => rule.names.length > 0);
  profile.syscalls.push({ names: ['io_pgetevents'], action: 'SCMP_ACT_ALLOW', args: [] });
  const seccomp = path.join(runDir, 'seccomp.json');
  writeFileSync(seccomp, JSON.stringify(profile));
  const conf = readFileSync(path.join(ROOT, 'deploy', 'local', 'containers.conf'), 'utf8').replace(/^\[containers\]$/m, `[containers]\nseccomp_profile = "${seccomp}"`);
  writeFileSync(CONTAINERS_CONF, conf);
}
const engineEnv = { ...process.env, CONTAINERS_CONF, DOCKER_HOST: `unix://${socket}`, COMPOSE_PROJECT_NAME: PROJECT };
let apiService;

async function startApiService() {
  // Its log (mostly that this machine has no systemd for health-check timers) goes to a file of the run.
  const apiLog = openSync(path.join(runDir, 'podman-service.log'), 'a');
  apiService = spawn('podman', ['system', 'service', '--time=0', `unix://${socket}`], { env: engineEnv, stdio: ['ignore', apiLog, apiLog] });
  await waitFor('podman system service', () => existsSync(socket), 20_000);
}

const podman = (args, opts = {}) => run('podman', args, { env: engineEnv, ...opts });
const podmanOut = (args) => check('podman', args, { env: engineEnv });

const envFile = path.join(runDir, '.env');
/** The soak stage runs (IT_SOAK=1), and with it the short pruning it waits for; the other stages run as deployed. */
const SOAK = process.env.IT_SOAK === '1';
const overrideFile = path.join(runDir, 'docker-compose.it.yml');
const COMPOSE_FILES = ['-f', path.join(ROOT, 'docker-compose.yml'), '-f', path.join(ROOT, 'docker-compose.local.yml'), ...(SOAK ? ['-f', overrideFile] : [])];
const compose = (args, opts = {}) => run('docker-compose', ['--project-directory', ROOT, '-p', PROJECT, ...COMPOSE_FILES, '--env-file', envFile, ...args], { env: engineEnv, cwd: ROOT, ...opts });

/** The secrets of this run only: fresh random values, in a file that is removed at the end. */
function writeEnvFile() {
  const secret = () => randomBytes(24).toString('hex');
  const values = {
    TAG,
    GATEWAY_PORT,
    PUBLIC_URL: BASE_URL,
    LOG_LEVEL: 'info',
    POSTGRES_PASSWORD: secret(),
    // Each service's own Postgres role (docker-compose.yml, db-setup).
    ...Object.fromEntries(SERVICES.filter((name) => name !== 'gateway').map((name) => [`POSTGRES_PASSWORD_${name.replace(/-/g, '_').toUpperCase()}`, secret()])),
    RABBITMQ_PASSWORD: secret(),
    // Each service's own broker user (docker-compose.yml, deploy/rabbitmq/broker-users.sh).
    ...Object.fromEntries(SERVICES.filter((name) => name !== 'gateway').map((name) => [`RABBITMQ_PASSWORD_${name.replace(/-/g, '_').toUpperCase()}`, secret()])),
    S3_ACCESS_KEY: `it${randomBytes(8).toString('hex')}`,
    S3_SECRET_KEY: secret(),
    STORAGE_SIGNING_SECRET: secret(),
    SERVICE_TOKEN_SECRET: secret(),
    JWT_KEY_PASSPHRASE: secret(),
    // The suite's uploads are the only work: no demo upload competing with them.
    DEMO_SEED: 'false',
    // The suite buys a pack through the simulated checkout, which compose leaves off unless told.
    SIMULATED_CHECKOUT: 'true',
    OBJECT_STORE_SIZE_GB: '4',
    ...(SOAK ? PRUNING : {}),
  };
  writeFileSync(envFile, Object.entries(values).map(([k, v]) => `${k}=${v}\n`).join(''), { mode: 0o600 });
  if (SOAK) writeComposeOverride();
}

/**
 * Short pruning for the soak stage, which waits for deleted data to leave the database: a sent event leaves the
 * outbox at the next pass, and results drops a deleted upload's tombstone and repeats its purge within a minute.
 * The inbox keeps its shortest allowed window (INBOX_RETENTION_HOURS is at least 2), so its rows stay.
 */
const PRUNING = { OUTBOX_RETENTION_MINUTES: '0', MESSAGE_PRUNE_INTERVAL_MS: '5000', PURGE_INTERVAL_MS: '5000', PURGE_REPEAT_MINUTES: '1', PURGE_WINDOW_HOURS: '0.01' };

/**
 * docker-compose.yml passes only what production needs into the services; this file of the run adds the pruning
 * settings of the env file (the shared ones to every service, the purge ones to results).
 */
function writeComposeOverride() {
  const from = (keys) => Object.fromEntries(keys.map((k) => [k, `\${${k}}`]));
  const shared = from(['OUTBOX_RETENTION_MINUTES', 'MESSAGE_PRUNE_INTERVAL_MS']);
  const services = Object.fromEntries(SERVICES.filter((name) => name !== 'gateway').map((name) => [name, { environment: name === 'results' ? { ...shared, ...from(['PURGE_INTERVAL_MS', 'PURGE_REPEAT_MINUTES', 'PURGE_WINDOW_HOURS']) } : shared }]));
  // JSON is YAML: compose reads it as the third file.
  writeFileSync(overrideFile, JSON.stringify({ services }, null, 2));
}

// ── health checks ───────────────────────────────────────────────────────────────────────────────────────────
// Podman schedules HEALTHCHECKs with systemd timers; this machine has no systemd, so nothing would ever run
// them and compose's `condition: service_healthy` would wait forever. While the stack starts, this loop runs
// `podman healthcheck run` for every container of the project that is not healthy yet (Docker needs none of it).
function projectContainers(filters = []) {
  const r = podmanOut(['ps', '-a', '--filter', `label=com.docker.compose.project=${PROJECT}`, ...filters.flatMap((f) => ['--filter', f]), '--format', '{{.ID}} {{.Names}} {{.Status}}']);
  return r.out
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [id, name, ...status] = line.split(' ');
      return { id, name, status: status.join(' ') };
    });
}

function healthDriver() {
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      const pending = [...projectContainers(['health=starting']), ...projectContainers(['health=unhealthy'])];
      await Promise.all(pending.map((c) => new Promise((resolve) => spawn('podman', ['healthcheck', 'run', c.id], { env: engineEnv, stdio: 'ignore' }).on('exit', resolve).on('error', resolve))));
      await new Promise((r) => setTimeout(r, 3_000));
    }
  })();
  return async () => {
    stopped = true;
    await loop;
  };
}

/** The one-shot services of the stack (no health check): done once they exited with 0. */
const ONE_SHOT = ['db-setup'];
const finishedOneShot = (c) => ONE_SHOT.some((service) => c.name.includes(`_${service}_`)) && /^Exited \(0\)/.test(c.status);

async function waitAllHealthy(timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  let waiting = [];
  while (Date.now() < deadline) {
    const all = projectContainers();
    waiting = all.filter((c) => !/\(healthy\)/.test(c.status) && !finishedOneShot(c));
    if (all.length > 0 && waiting.length === 0) return all;
    await new Promise((r) => setTimeout(r, 2_000));
  }
  throw new Error(`not healthy after ${timeoutMs / 1000} s: ${waiting.map((c) => `${c.name} (${c.status})`).join(', ')}`);
}

async function gatewayHealthy(timeoutMs) {
  await waitFor(
    `${BASE_URL}/api/health`,
    async () => {
      try {
        return (await fetch(`${BASE_URL}/api/health`)).status === 200;
      } catch {
        return false;
      }
    },
    timeoutMs,
  );
}

// ── images ──────────────────────────────────────────────────────────────────────────────────────────────────
/**
 * What a build here needs to reach the npm registry: the machine's CA bundle (read-only) and its registry. The bundle
 * is mounted beside the image's own /etc/ssl/certs, which Debian's ca-certificates writes when a package needs it
 * (yt-dlp's python3-certifi): mounted over it, that package fails to configure.
 */
function buildAccessArgs() {
  const args = [];
  if (existsSync('/etc/ssl/certs/ca-certificates.crt')) args.push('-v', '/etc/ssl/certs/ca-certificates.crt:/run/host-ca-certificates.crt:ro', '--build-arg', 'NODE_EXTRA_CA_CERTS=/run/host-ca-certificates.crt');
  const configured = spawnSync('npm', ['config', 'get', 'registry'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).stdout?.trim();
  const registry = (configured || 'https://registry.npmjs.org').replace(/\/+$/, '');
  args.push('--build-arg', `COREPACK_NPM_REGISTRY=${registry}`, '--build-arg', 'COREPACK_INTEGRITY_KEYS=0', '--build-arg', `npm_config_registry=${registry}/`);
  return args;
}

async function buildServiceImages() {
  const access = buildAccessArgs();
  for (const name of SERVICES) {
    const t = Date.now();
    await podman(['build', '--format', 'docker', '-f', 'deploy/Dockerfile', '--build-arg', `SERVICE=${name}`, '--build-arg', `NODE_IMAGE=${LOCAL_IMAGES.node}`, ...access, '-t', `frametext/${name}:${TAG}`, '.'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    log(`frametext/${name}:${TAG} built in ${secs(Date.now() - t)}`);
  }
}

/** Three ocr-tesseract containers, each healthy: `up` starts a stopped one again and adds what is missing. */
async function threeOcrWorkers() {
  const stopDriver = healthDriver();
  try {
    await compose(['up', '-d', '--no-build', '--no-recreate', '--scale', 'ocr-tesseract=3']);
    await waitAllHealthy(180_000);
  } finally {
    await stopDriver();
  }
}

// ── the suite ───────────────────────────────────────────────────────────────────────────────────────────────
const results = [];
const vitest = (file) => {
  const json = path.join(runDir, `${path.basename(file)}.json`);
  results.push(json);
  return run('pnpm', ['exec', 'vitest', 'run', '--config', 'vitest.containers.config.ts', '--reporter=default', '--reporter=json', `--outputFile.json=${json}`, file], {
    cwd: ROOT,
    env: { ...engineEnv, IT_BASE_URL: BASE_URL, IT_PROJECT: PROJECT },
  });
};

/** One closing line over the suite's files, as `npm test` prints: `containers: N passed, N failed`. */
function closingLine() {
  const sum = { passed: 0, failed: 0 };
  for (const file of results) {
    try {
      const r = JSON.parse(readFileSync(file, 'utf8'));
      sum.passed += r.numPassedTests;
      sum.failed += r.numFailedTests;
    } catch {
      // That file did not get far enough to write its results.
    }
  }
  return `containers: ${sum.passed} passed, ${sum.failed} failed`;
}

/** The project's containers, volumes and networks that still exist, by kind. */
function leftovers() {
  const label = `label=com.docker.compose.project=${PROJECT}`;
  const ids = (args) => podmanOut([...args, '-q', '--filter', label]).out.trim().split('\n').filter(Boolean);
  return { containers: ids(['ps', '-a']), networks: ids(['network', 'ls']), volumes: ids(['volume', 'ls']) };
}

const describeLeftovers = (left) =>
  Object.entries(left)
    .filter(([, ids]) => ids.length)
    .map(([kind, ids]) => `${kind}: ${ids.join(' ')}`);

/** Removes whatever of the project is left (an interrupted run's, or what a failed `down` missed), without compose. */
async function removeLeftovers() {
  const left = leftovers();
  if (left.containers.length) await podman(['rm', '-f', '-t', '0', ...left.containers], { stdio: 'ignore' }).catch(() => {});
  if (left.networks.length) await podman(['network', 'rm', '-f', ...left.networks], { stdio: 'ignore' }).catch(() => {});
  if (left.volumes.length) await podman(['volume', 'rm', '-f', ...left.volumes], { stdio: 'ignore' }).catch(() => {});
  return describeLeftovers(left);
}

async function dumpLogs() {
  for (const c of projectContainers()) {
    if (/\(healthy\)/.test(c.status)) continue;
    console.log(`\n── ${c.name} (${c.status}), last lines:`);
    await podman(['logs', '--tail', '40', c.id]).catch(() => {});
  }
}

let stackUp = false;
async function main() {
  await stage('host tools', async () => {
    await ensureBinaries(HOST_PACKAGES);
    if (!existsSync(path.join(ROOT, 'node_modules', '.modules.yaml'))) await run('pnpm', ['install', '--frozen-lockfile'], { cwd: ROOT, env: { ...process.env, CI: 'true' } });
    writeEngineSettings();
    await startApiService();
  });
  await stage('base images (debootstrap, Node, infra)', () => buildLocalImages({ podman: 'podman', log }));
  await stage('service images (deploy/Dockerfile)', buildServiceImages);
  await stage('compose up, every health check green', async () => {
    const stale = await removeLeftovers();
    if (stale.length) log(`removed what an earlier, interrupted run left: ${stale.join('; ')}`);
    writeEnvFile();
    stackUp = true;
    const stopDriver = healthDriver();
    try {
      await compose(['up', '-d', '--no-build']);
      const all = await waitAllHealthy(300_000);
      log(`${all.length} containers healthy`);
      await gatewayHealthy(120_000);
    } finally {
      await stopDriver();
    }
  });
  await stage('database roles: each service in its own schema', () => vitest('test/containers/database-roles.containers.ts'));
  await stage('broker users: each service on its own queues and events', () => vitest('test/containers/broker-users.containers.ts'));
  await stage('integration suite', () => vitest('test/containers/suite.containers.ts'));
  await stage('three OCR workers share one upload', async () => {
    await threeOcrWorkers();
    await vitest('test/containers/workers.containers.ts');
  });
  await stage('rollback: each service restarted on a newer schema', () => vitest('test/containers/rollback.containers.ts'));
  // The worker the workers stage killed is started again: the soak test's uploads spread over three.
  if (SOAK) {
    await stage('soak: burst, broker and database restarts, deletion', async () => {
      await threeOcrWorkers();
      await vitest('test/containers/soak.containers.ts');
    });
  }
  await stage('down -v leaves nothing', async () => {
    await compose(['down', '-v', '--remove-orphans', '-t', '20']);
    stackUp = false;
    const left = describeLeftovers(leftovers());
    if (left.length) throw new Error(`left behind after down -v: ${left.join('; ')}`);
  });
}

let outcome = 'passed';
// Ctrl-C or a CI time-out: stop, then clean up as after a failure.
let interrupted;
const interruption = new Promise((_, reject) => {
  interrupted = reject;
});
for (const signal of ['SIGINT', 'SIGTERM']) process.once(signal, () => interrupted(new Error(`${signal}: stopping`)));
try {
  await Promise.race([main(), interruption]);
} catch (err) {
  outcome = 'FAILED';
  console.error(`\n${err.stack ?? err}`);
  if (stackUp) await dumpLogs();
} finally {
  if (stackUp && process.env.IT_KEEP_STACK !== '1') {
    await compose(['down', '-v', '--remove-orphans', '-t', '10']).catch(() => {});
    await removeLeftovers();
  }
  if (stackUp && process.env.IT_KEEP_STACK === '1') log(`stack left up (IT_KEEP_STACK=1): DOCKER_HOST=unix://${socket} docker-compose -p ${PROJECT} ... down -v`);
  else apiService?.kill('SIGTERM');
  printTimings(outcome);
  console.log(closingLine());
  if (process.env.IT_KEEP_STACK !== '1') rmSync(runDir, { recursive: true, force: true });
}
if (outcome !== 'passed') fail('container integration run failed');
