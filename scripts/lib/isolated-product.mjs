// The product as `npm start` runs it (one supervised process per service, the gateway on :8080), for tests: with
// a RabbitMQ virtual host, a database and a data folder of its own, so a run never meets a real installation's
// queues or data, and leaves nothing behind.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT, SERVICES, startServices, waitUntilHealthy } from './services.mjs';
import { portOpen } from './sh.mjs';

const quietly = (cmd, args) => execFileSync(cmd, args, { stdio: 'ignore', timeout: 60_000 });

/**
 * Starts the built services under `name` (vhost and database `frametext_<name>`) with `env` on top, and waits until
 * /api/health is green. Answers the running processes, the base URL, the data folder and a `stop()` that removes
 * the vhost, the database and the folder.
 */
export async function startIsolatedProduct(name, env = {}, timeoutMs = 120_000) {
  for (const service of SERVICES) {
    if (!existsSync(path.join(ROOT, 'services', service, 'dist', 'main.js'))) throw new Error(`services/${service} is not built: run pnpm run build (npm test does)`);
  }
  if (await portOpen(8080)) throw new Error('port 8080 is taken (is `npm start` running?): stop it to run these tests');
  const vhost = `frametext_${name}`;
  const database = `frametext_${name}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), `frametext-${name}-`));
  try {
    quietly('rabbitmqctl', ['add_vhost', vhost]);
  } catch {
    // Left by an interrupted run: reuse it.
  }
  quietly('rabbitmqctl', ['set_permissions', '-p', vhost, 'guest', '.*', '.*', '.*']);
  const running = startServices({
    quiet: true,
    env: {
      DATA_DIR: dataDir,
      DATABASE_URL: `postgres://postgres:postgres@127.0.0.1:5432/${database}`,
      RABBITMQ_URL: `amqp://guest:guest@127.0.0.1:5672/${vhost}`,
      ...env,
    },
  });
  const base = 'http://localhost:8080';
  await waitUntilHealthy(base, timeoutMs);
  return {
    base,
    dataDir,
    running,
    async stop() {
      await running.stop();
      rmSync(dataDir, { recursive: true, force: true });
      try {
        quietly('rabbitmqctl', ['delete_vhost', vhost]);
      } catch {
        // Already gone.
      }
      quietly('psql', ['postgres://postgres:postgres@127.0.0.1:5432/postgres', '-qc', `drop database if exists ${database} with (force)`]);
    },
  };
}
