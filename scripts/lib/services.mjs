// Runs every FrameText service as its own process, the way `npm start` and the browser tests need them.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { log } from './sh.mjs';

export const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);

/** Every process of the product; the gateway last, so its first health poll finds the others starting. */
export const SERVICES = ['identity', 'upload', 'frame-extraction', 'ocr-tesseract', 'ocr-cloud', 'billing', 'results', 'gateway'];

export function dataDir() {
  return path.resolve(ROOT, process.env.DATA_DIR ?? '.data');
}

/** Secrets shared by the processes of one installation, made once and kept in the data directory. */
function localSecrets(dir) {
  const file = path.join(dir, 'secrets.json');
  const kept = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const wanted = {
    STORAGE_SIGNING_SECRET: () => randomBytes(32).toString('hex'),
    // Signs the simulated checkout's webhooks (billing, when no STRIPE_SECRET_KEY is set).
    SIMULATED_CHECKOUT_WEBHOOK_SECRET: () => `whsec_${randomBytes(24).toString('hex')}`,
  };
  const missing = Object.keys(wanted).filter((k) => !kept[k]);
  if (missing.length === 0) return kept;
  const secrets = { ...kept, ...Object.fromEntries(missing.map((k) => [k, wanted[k]()])) };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
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

/**
 * Starts the services; resolves with a `stop()` that sends SIGTERM to each and waits for them.
 * `quiet` keeps their logs in files only (used by tests).
 */
export function startServices({ env = {}, quiet = false } = {}) {
  const dir = env.DATA_DIR ? path.resolve(env.DATA_DIR) : dataDir();
  const logsDir = path.join(dir, 'logs');
  mkdirSync(logsDir, { recursive: true });
  const baseEnv = { ...process.env, ...localSecrets(dir), NODE_ENV: process.env.NODE_ENV ?? 'production', ...env, DATA_DIR: dir };
  const children = new Map();
  let stopping = false;

  for (const service of SERVICES) {
    const entry = path.join(ROOT, 'services', service, 'dist', 'main.js');
    const child = spawn(process.execPath, ['--enable-source-maps', entry], { cwd: path.join(ROOT, 'services', service), env: baseEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    const file = createWriteStream(path.join(logsDir, `${service}.log`), { flags: 'a' });
    for (const stream of [child.stdout, child.stderr]) {
      let buffer = '';
      stream.on('data', (chunk) => {
        file.write(chunk);
        if (quiet) return;
        buffer += chunk.toString();
        let nl;
        while ((nl = buffer.indexOf('\n')) >= 0) {
          const line = buffer.slice(0, nl);
          buffer = buffer.slice(nl + 1);
          if (line.trim()) process.stdout.write(`${prettyLine(service, line)}\n`);
        }
      });
    }
    child.on('exit', (code, signal) => {
      children.delete(service);
      file.end();
      if (!stopping) log(`${service} exited (${signal ?? code}); see ${path.join(logsDir, `${service}.log`)}`);
    });
    children.set(service, child);
  }

  return {
    children,
    stop: () => {
      stopping = true;
      return Promise.all(
        [...children.values()].map(
          (child) =>
            new Promise((resolve) => {
              if (child.exitCode !== null) return resolve();
              const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
              child.once('exit', () => (clearTimeout(timer), resolve()));
              child.kill('SIGTERM');
            }),
        ),
      );
    },
  };
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
