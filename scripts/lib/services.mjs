// Runs every FrameText service as its own process, the way `npm start` and the browser tests need them.
import { spawn } from 'node:child_process';
import { chmodSync, createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { SERVICES as REGISTRY } from '../../packages/contracts/src/registry.js';
import { log } from './sh.mjs';

export const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);

/**
 * Every process of the product, in the service registry's order (packages/contracts/src/registry.js, plain
 * JavaScript, so it needs no build): the gateway last, so its first health poll finds the others starting.
 */
export const SERVICES = REGISTRY.map((s) => s.name);

export function dataDir() {
  return path.resolve(ROOT, process.env.DATA_DIR ?? '.data');
}

/** Secrets shared by the processes of one installation, made once and kept in the data directory. */
function localSecrets(dir) {
  const file = path.join(dir, 'secrets.json');
  const kept = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const wanted = {
    STORAGE_SIGNING_SECRET: () => randomBytes(32).toString('hex'),
    // Signs the workload tokens the services call each other with.
    SERVICE_TOKEN_SECRET: () => randomBytes(32).toString('hex'),
    // Encrypts identity's signing keys in Postgres (production refuses to store them in clear).
    JWT_KEY_PASSPHRASE: () => randomBytes(32).toString('hex'),
    // Signs the simulated checkout's webhooks (billing, when no STRIPE_SECRET_KEY is set).
    SIMULATED_CHECKOUT_WEBHOOK_SECRET: () => `whsec_${randomBytes(24).toString('hex')}`,
  };
  const missing = Object.keys(wanted).filter((k) => !kept[k]);
  if (missing.length === 0) return kept;
  const secrets = { ...kept, ...Object.fromEntries(missing.map((k) => [k, wanted[k]()])) };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

/**
 * A machine of one's own buys packs through billing's simulated checkout (no money moves), which billing never turns
 * on by itself: on here unless a Stripe key is given or SIMULATED_CHECKOUT says otherwise.
 */
function localPurchases(env) {
  if (env.SIMULATED_CHECKOUT !== undefined || env.STRIPE_SECRET_KEY) return {};
  return { SIMULATED_CHECKOUT: 'true' };
}

/**
 * On a local install (`npm start` only) a webhook may point at this machine (localhost, 127.0.0.1, [::1]), over http
 * too, so a receiver of one's own can try it. Compose, Kubernetes and the test stacks never set this: there every
 * webhook is HTTPS to a public address. A WEBHOOK_LOCAL_HOSTS of one's own, even empty, wins.
 */
export function localWebhookHosts(env = process.env) {
  if (env.WEBHOOK_LOCAL_HOSTS !== undefined) return {};
  return { WEBHOOK_LOCAL_HOSTS: 'localhost,127.0.0.1,[::1]' };
}

/**
 * The same for videos by link: on a local install a link may point at this machine, over http too, so a video served
 * by one's own web server can be tried. Nowhere else. A VIDEO_LINK_LOCAL_HOSTS of one's own, even empty, wins.
 */
export function localVideoLinkHosts(env = process.env) {
  if (env.VIDEO_LINK_LOCAL_HOSTS !== undefined) return {};
  return { VIDEO_LINK_LOCAL_HOSTS: 'localhost,127.0.0.1,[::1]' };
}

const LEVELS = { 10: 'trace', 20: 'debug', 30: 'info', 40: 'warn', 50: 'error', 60: 'fatal' };
const COLORS = { warn: 33, error: 31, fatal: 31 };

/** One readable line per pino JSON line; anything else is passed through. */
function prettyLine(service, line) {
  let rec;
  try {
    rec = JSON.parse(line);
  } catch {
    return `${service.padEnd(16)} ${line}`;
  }
  const level = LEVELS[rec.level] ?? 'info';
  const time = (rec.time ?? new Date().toISOString()).slice(11, 19);
  const shown = ['method', 'path', 'status', 'ms', 'port', 'link', 'uploadId']
    .filter((k) => rec[k] !== undefined)
    .map((k) => `${k}=${rec[k]}`);
  if (rec.err?.message) shown.push(`error: ${rec.err.message}`);
  const extra = shown.length ? `  ${shown.join(' ')}` : '';
  const text = `${time} ${service.padEnd(16)} ${level.padEnd(5)} ${rec.msg ?? ''}${extra}`;
  return COLORS[level] ? `\x1b[${COLORS[level]}m${text}\x1b[0m` : text;
}

/** Restart backoff: 1 s after a crash, doubling up to 30 s; a process that ran a minute starts again from 1 s. */
/**
 * How each service's Node runs (deploy/Dockerfile's CMD says the same): V8's garbage collector on the service's own
 * thread. Its helper threads took more CPU than they saved the main thread on machines whose cores the OCR already
 * keeps busy (docs/benchmarks.md). SERVICE_NODE_FLAGS adds flags to every service (`--cpu-prof` to profile them).
 */
const NODE_FLAGS = ['--enable-source-maps', '--single-threaded-gc', ...(process.env.SERVICE_NODE_FLAGS?.split(/\s+/).filter(Boolean) ?? [])];

const RESTART_MIN_MS = 1_000;
const RESTART_MAX_MS = 30_000;
const STABLE_AFTER_MS = 60_000;

/** Why a process ended, from its exit and the last error it logged. */
function exitReason(code, signal, lastError) {
  const how = signal ? `killed by ${signal}` : `exit code ${code}`;
  return lastError ? `${how}: ${lastError}` : how;
}

/**
 * Starts the services and keeps them running: a process that exits on its own is started again with backoff,
 * and the log says why it ended (the gateway's /api/health shows it as unreachable meanwhile), as a container
 * restart policy does. `stop()` sends SIGTERM to each and waits for them. `quiet` keeps their logs in files only
 * (used by tests); `children` holds each service's current process.
 */
export function startServices({ env = {}, quiet = false } = {}) {
  const dir = env.DATA_DIR ? path.resolve(env.DATA_DIR) : dataDir();
  const logsDir = path.join(dir, 'logs');
  // Logs name people's e-mail addresses: readable by the user who runs FrameText only.
  mkdirSync(logsDir, { recursive: true, mode: 0o700 });
  chmodSync(logsDir, 0o700);
  const baseEnv = { ...process.env, ...localSecrets(dir), NODE_ENV: process.env.NODE_ENV ?? 'production', ...localPurchases({ ...process.env, ...env }), ...env, DATA_DIR: dir };
  const children = new Map();
  const restarts = new Map();
  let stopping = false;

  // `name` tells apart the processes of one service (`ocr-tesseract`, `ocr-tesseract-2`); `extraEnv` is theirs alone.
  function launch(service, delayMs = RESTART_MIN_MS, name = service, extraEnv = {}) {
    const logFile = path.join(logsDir, `${name}.log`);
    const entry = path.join(ROOT, 'services', service, 'dist', 'main.js');
    const env = { ...baseEnv, ...extraEnv };
    const child = spawn(process.execPath, [...NODE_FLAGS, entry], { cwd: path.join(ROOT, 'services', service), env, stdio: ['ignore', 'pipe', 'pipe'] });
    const file = createWriteStream(logFile, { flags: 'a', mode: 0o600 });
    const started = Date.now();
    let lastError;
    for (const stream of [child.stdout, child.stderr]) {
      let buffer = '';
      stream.on('data', (chunk) => {
        file.write(chunk);
        buffer += chunk.toString();
        let nl;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          lastError = errorOf(line) ?? lastError;
          if (!quiet && line.trim()) process.stdout.write(`${prettyLine(name, line)}\n`);
        }
      });
    }
    child.on('exit', (code, signal) => {
      file.end();
      if (stopping) return;
      const next = Date.now() - started >= STABLE_AFTER_MS ? RESTART_MIN_MS : delayMs;
      log(`${name} stopped (${exitReason(code, signal, lastError)}); starting it again in ${next / 1000} s. Log: ${logFile}`);
      restarts.set(
        name,
        setTimeout(() => {
          restarts.delete(name);
          if (!stopping) launch(service, Math.min(RESTART_MAX_MS, next * 2), name, extraEnv);
        }, next),
      );
    });
    children.set(name, child);
  }

  for (const service of SERVICES) launch(service);

  return {
    children,
    /** Starts one more process of a consuming service (another OCR worker, say), on a port of its own; returns its name. */
    addReplica(service) {
      const name = `${service}-${[...children.keys()].filter((k) => k === service || k.startsWith(`${service}-`)).length + 1}`;
      launch(service, RESTART_MIN_MS, name, { PORT: '0' });
      return name;
    },
    stop: () => {
      stopping = true;
      for (const timer of restarts.values()) clearTimeout(timer);
      restarts.clear();
      return Promise.all(
        [...children.values()].map(
          (child) =>
            new Promise((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve();
              const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
              child.once('exit', () => (clearTimeout(timer), resolve()));
              child.kill('SIGTERM');
            }),
        ),
      );
    },
  };
}

/** The message of a pino line at level error or fatal, if it is one. */
function errorOf(line) {
  try {
    const rec = JSON.parse(line);
    return rec.level >= 50 ? (rec.msg ?? rec.err?.message) : undefined;
  } catch {
    return undefined;
  }
}

/** Waits until the gateway reports every service ready. */
export async function waitUntilHealthy(baseUrl, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) return;
      const body = await res.json().catch(() => ({}));
      last = Object.entries(body.services ?? {})
        .filter(([, s]) => s.status !== 'ok')
        .map(([name]) => name)
        .join(', ');
    } catch (err) {
      last = err.message;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`services not ready after ${timeoutMs / 1000} s: ${last}`);
}
