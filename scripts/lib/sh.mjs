// Small process helpers for the start and test scripts. Plain Node, no dependencies: these run before `pnpm install`.
import { spawn, spawnSync } from 'node:child_process';
import net from 'node:net';

export function log(msg) {
  process.stdout.write(`\x1b[36m[frametext]\x1b[0m ${msg}\n`);
}

export function fail(msg) {
  process.stderr.write(`\x1b[31m[frametext] ${msg}\x1b[0m\n`);
  process.exit(1);
}

/**
 * Runs a command, streaming its output; throws with the command line when it fails. With `buffered`, its output is
 * printed in one piece when it ends, so commands run side by side do not interleave.
 */
export function run(cmd, args, { buffered = false, ...opts } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit', ...opts });
    const output = [];
    if (buffered) for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => output.push(chunk));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (output.length > 0) process.stdout.write(Buffer.concat(output));
      if (code === 0) resolve();
      else reject(new Error(`${cmd} ${args.join(' ')} exited with ${signal ?? code}`));
    });
  });
}

/** Runs a command quietly and returns whether it succeeded (and its output). */
export function check(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', ...opts });
  return { ok: r.status === 0, out: `${r.stdout ?? ''}${r.stderr ?? ''}` };
}

export function has(cmd) {
  return check('sh', ['-c', `command -v ${cmd}`]).ok;
}

export function portOpen(port, host = '127.0.0.1', timeoutMs = 500) {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

export async function waitFor(what, probe, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${what} did not come up within ${Math.round(timeoutMs / 1000)} s`);
}
