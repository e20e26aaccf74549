// Container health check: the process answers /health/live. No curl in slim images, so node's fetch does it.
// The port is PORT, or the service's row in the service registry (registry.js: beside this file in an image,
// packages/contracts/src/registry.js in a checkout).
import { existsSync } from 'node:fs';

async function registryPort(service) {
  const file = [new URL('./registry.js', import.meta.url), new URL('../packages/contracts/src/registry.js', import.meta.url)].find((f) => existsSync(f));
  if (!file) return undefined;
  const { SERVICES } = await import(file.href);
  return SERVICES.find((s) => s.name === service)?.port;
}

const port = process.env.PORT || (await registryPort(process.env.SERVICE ?? ''));
if (!port) {
  console.error('healthcheck: set PORT, or SERVICE to a name of the service registry');
  process.exit(1);
}
try {
  const res = await fetch(`http://127.0.0.1:${port}/health/live`, { signal: AbortSignal.timeout(4000) });
  process.exit(res.ok ? 0 : 1);
} catch {
  process.exit(1);
}
