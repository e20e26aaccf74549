import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpApp, finishHttpApp, listen, type RunningServer } from '../src/http/app.js';
import { createServiceMetrics, METRIC_NAMES, type ServiceMetrics } from '../src/metrics/definitions.js';
import { metricsPort, serveMetrics, type MetricsServer } from '../src/metrics/server.js';
import { sampleOf, testLogger } from '../src/testing/index.js';

let metrics: ServiceMetrics;
let api: RunningServer;
let scrape: MetricsServer;

beforeAll(async () => {
  const logger = testLogger('metrics');
  metrics = createServiceMetrics('demo');
  const http = createHttpApp({ name: 'demo', logger, metrics });
  const router = express.Router();
  router.get('/things/:id', (req, res) => void res.json({ id: req.params.id }));
  http.app.use('/api', router);
  finishHttpApp(http.app, logger);
  api = await listen(http.app, 0, '127.0.0.1');
  scrape = await serveMetrics(metrics.registry, 0, '127.0.0.1');
});
afterAll(async () => {
  await api?.close();
  await scrape?.close();
});

const base = () => `http://127.0.0.1:${api.port}`;
const metricsText = async () => (await fetch(`http://127.0.0.1:${scrape.port}/metrics`)).text();

describe('metrics', () => {
  it('count HTTP requests by route template and status class, never by the raw path', async () => {
    for (const id of ['1', '2', '3']) expect((await fetch(`${base()}/api/things/${id}`)).status).toBe(200);
    expect((await fetch(`${base()}/no/such/${Date.now()}`)).status).toBe(404);
    const text = await metricsText();
    expect(sampleOf(text, METRIC_NAMES.httpRequests, { service: 'demo', method: 'GET', route: '/api/things/:id', status_class: '2xx' })).toBe(3);
    expect(sampleOf(text, METRIC_NAMES.httpRequests, { method: 'GET', route: 'unmatched', status_class: '4xx' })).toBe(1);
    expect(sampleOf(text, `${METRIC_NAMES.httpDuration}_count`, { method: 'GET', route: '/api/things/:id' })).toBe(3);
    expect(text).not.toMatch(/route="\/api\/things\/1"/);
  });

  it('are served on a listener of their own, GET /metrics only; the API does not answer /metrics', async () => {
    expect((await fetch(`http://127.0.0.1:${scrape.port}/other`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${scrape.port}/metrics`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${base()}/metrics`)).status).toBe(404);
    expect(await metricsText()).toContain('process_cpu_user_seconds_total{service="demo"}');
  });

  it('still answer when a gauge cannot be read (the broker or the database is down): that gauge is left out', async () => {
    metrics.gauge('frametext_test_unreadable', 'A gauge whose source is down', [], async () => {
      throw new Error('connection refused');
    });
    const res = await fetch(`http://127.0.0.1:${scrape.port}/metrics`);
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).not.toMatch(/^frametext_test_unreadable /m);
    expect(sampleOf(text, METRIC_NAMES.httpRequests, { route: '/api/things/:id', status_class: '2xx' })).toBe(3);
  });

  it('listen on the HTTP port + 1000 unless told otherwise', () => {
    expect(metricsPort(undefined, 8101)).toBe(9101);
    expect(metricsPort(undefined, 0)).toBe(0);
    expect(metricsPort(9999, 8101)).toBe(9999);
    expect(metricsPort('off', 8101)).toBe('off');
  });
});
