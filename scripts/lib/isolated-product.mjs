// The product as `npm start` runs it (one supervised process per service, the gateway on :8080), for tests: with
// a RabbitMQ virtual host, a database and a data folder of its own, so a run never meets a real installation's
// queues or data, and leaves nothing behind. The vhost and database are named after the run's process, so a
// second run (another checkout, CI beside a developer) never shares or drops them; what a killed run left is
// removed by the next one.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ROOT, SERVICES, startServices, waitUntilHealthy } from './services.mjs';
import { portOpen } from './sh.mjs';

const quietly = (cmd, args) => execFileSync(cmd, args, { stdio: 'ignore', timeout: 60_000 });
const output = (cmd, args) => execFileSync(cmd, args, { encoding: 'utf8', timeout: 60_000 });
const ADMIN_DB = 'postgres://postgres:postgres@127.0.0.1:5432/postgres';

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

function dropDatabase(database) {
  quietly('psql', [ADMIN_DB, '-qc', `drop database if exists ${database} with (force)`]);
}

function deleteVhost(vhost) {
  try {
    quietly('rabbitmqctl', ['delete_vhost', vhost]);
  } catch {
    // Already gone.
  }
}

/** Drops the databases and vhosts `frametext_<name>_<pid>` whose process has ended (a run that was killed). */
function removeLeftovers(name) {
  const leftover = new RegExp(`^frametext_${name}_(\\d+)$`);
  const ended = (names) => names.map((n) => n.trim()).filter((n) => leftover.test(n) && !alive(Number(leftover.exec(n)[1])));
  ended(output('psql', [ADMIN_DB, '-Atc', 'select datname from pg_database']).split('\n')).forEach(dropDatabase);
  ended(output('rabbitmqctl', ['-q', 'list_vhosts', 'name']).split('\n')).forEach(deleteVhost);
}

/**
 * Starts the built services under `name` (vhost and database `frametext_<name>_<pid>`) with `env` on top, and waits until
 * /api/health is green. Answers the running processes, the base URL, the data folder and a `stop()` that removes
 * the vhost, the database and the folder.
 */
export async function startIsolatedProduct(name, env = {}, timeoutMs = 120_000) {
  for (const service of SERVICES) {
    if (!existsSync(path.join(ROOT, 'services', service, 'dist', 'main.js'))) throw new Error(`services/${service} is not built: run pnpm run build (npm test does)`);
  }
  if (await portOpen(8080)) throw new Error('port 8080 is taken (is `npm start` running?): stop it to run these tests');
  removeLeftovers(name);
  const vhost = `frametext_${name}_${process.pid}`;
  const database = vhost;
  const dataDir = mkdtempSync(path.join(tmpdir(), `frametext-${name}-`));
  quietly('rabbitmqctl', ['add_vhost', vhost]);
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
      deleteVhost(vhost);
      dropDatabase(database);
    },
  };
}
