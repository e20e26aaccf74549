// `npm start`: provision this machine, build, and run the whole product on http://localhost:8080.
import { provision } from './lib/provision.mjs';
import { fail, log } from './lib/sh.mjs';
import { dataDir, localVideoLinkHosts, localWebhookHosts, startServices, waitUntilHealthy } from './lib/services.mjs';

const started = Date.now();
try {
  await provision();
} catch (err) {
  fail(`setup failed: ${err.message}`);
}

const port = process.env.PORT ?? '8080';
const url = `http://localhost:${port}`;
log(`starting services (data in ${dataDir()})`);
const running = startServices({ env: { ...localWebhookHosts(), ...localVideoLinkHosts() } });

let stopping = false;
async function stop(signal) {
  if (stopping) return;
  stopping = true;
  log(`${signal}: stopping every service`);
  await running.stop();
  log('stopped');
  process.exit(0);
}
process.on('SIGINT', () => stop('SIGINT'));
process.on('SIGTERM', () => stop('SIGTERM'));

try {
  await waitUntilHealthy(url);
  log(`FrameText is running at ${url}  (ready in ${Math.round((Date.now() - started) / 1000)} s; Ctrl-C stops it)`);
} catch (err) {
  log(`${err.message}; the services keep running. Check ${url}/api/health and the logs in ${dataDir()}/logs`);
}
