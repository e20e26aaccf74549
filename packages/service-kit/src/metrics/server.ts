import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { errorText } from '../errors/index.js';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/** The metrics port of a service: its own setting, or its HTTP port + 1000 (a random one when the HTTP port is). */
export function metricsPort(setting: number | 'off' | undefined, httpPort: number): number | 'off' {
  if (setting !== undefined) return setting;
  return httpPort === 0 ? 0 : httpPort + 1000;
}

/**
 * Serves `GET /metrics` in Prometheus' text format on a listener of its own, which the gateway never routes to: only
 * what can reach the service's network (Prometheus in the cluster, the machine itself) can scrape it.
 */
export function serveMetrics(registry: Registry, port: number, host: string): Promise<MetricsServer> {
  const server: Server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Only GET /metrics is served here.\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${errorText(err)}\n`),
    );
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve({
        port: (server.address() as AddressInfo).port,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}
