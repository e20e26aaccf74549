import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
// Plain JS modules of the repo's start script: the same way `npm start` runs the product.
import { startServices, waitUntilHealthy } from '../../scripts/lib/services.mjs';
import { portOpen } from '../../scripts/lib/sh.mjs';

export const E2E_DATA_DIR_ENV = 'FRAMETEXT_E2E_DATA_DIR';
const VHOST = 'frametext_e2e';

export default async function globalSetup(): Promise<() => Promise<void>> {
  if (await portOpen(8080)) throw new Error('port 8080 is taken (is `npm start` running?): stop it to run the browser tests');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'frametext-e2e-'));
  process.env[E2E_DATA_DIR_ENV] = dataDir;
  try {
    execFileSync('rabbitmqctl', ['add_vhost', VHOST], { stdio: 'ignore' });
  } catch {
    // Left by an interrupted run: reuse it.
  }
  execFileSync('rabbitmqctl', ['set_permissions', '-p', VHOST, 'guest', '.*', '.*', '.*'], { stdio: 'ignore' });
  const running = startServices({
    quiet: true,
    env: {
      DATA_DIR: dataDir,
      DATABASE_URL: 'postgres://postgres:postgres@127.0.0.1:5432/frametext_e2e',
      RABBITMQ_URL: `amqp://guest:guest@127.0.0.1:5672/${VHOST}`,
      LOG_LEVEL: 'info',
    },
  });
  await waitUntilHealthy('http://localhost:8080', 120_000);
  return async () => {
    await running.stop();
    try {
      execFileSync('rabbitmqctl', ['delete_vhost', VHOST], { stdio: 'ignore' });
    } catch {
      // Already gone.
    }
    execFileSync('psql', ['postgres://postgres:postgres@127.0.0.1:5432/postgres', '-qc', 'drop database if exists frametext_e2e with (force)'], { stdio: 'ignore' });
    rmSync(dataDir, { recursive: true, force: true });
  };
}
