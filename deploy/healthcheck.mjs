// Container health check: the process answers /health/live. No curl in slim images, so node's fetch does it.
// Default ports mirror SERVICE_PORTS in services/gateway/src/config.ts (test/deploy.test.ts keeps them equal).
const DEFAULT_PORTS = {
  gateway: 8080,
  identity: 8101,
  upload: 8102,
  'frame-extraction': 8103,
  'ocr-tesseract': 8104,
  'ocr-cloud': 8105,
  billing: 8106,
  results: 8107,
};

const port = process.env.PORT || DEFAULT_PORTS[process.env.SERVICE ?? ''] || 8080;
try {
  const res = await fetch(`http://127.0.0.1:${port}/health/live`, { signal: AbortSignal.timeout(4000) });
  process.exit(res.ok ? 0 : 1);
} catch {
  process.exit(1);
}
