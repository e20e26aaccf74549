import { createLogger, errorText, listen, loadConfigOrExit, metricsPort, serveMetrics, serverTimeouts } from '@frametext/service-kit';
import { gatewayConfigSchema } from './config.js';
import { createGateway } from './app.js';

const config = loadConfigOrExit('gateway', gatewayConfigSchema);
const logger = createLogger('gateway', config.LOG_LEVEL);

async function main(): Promise<void> {
  const gateway = createGateway(config, { logger });
  await gateway.storage?.ensureReady();
  const server = await listen(gateway.app, config.PORT, config.HOST, serverTimeouts(config));
  const port = metricsPort(config.METRICS_PORT, config.PORT);
  const metricsServer = port === 'off' ? undefined : await serveMetrics(gateway.metrics.registry, port, config.METRICS_HOST);
  gateway.start();
  logger.info({ port: server.port, metricsPort: metricsServer?.port, spaDir: config.SPA_DIR, storage: config.STORAGE_DRIVER }, 'gateway ready');

  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.SHUTDOWN_TIMEOUT_MS);
    timer.unref();
    // Readiness turns 503 first, then the server stops accepting and finishes the requests in hand.
    gateway.http.setDraining();
    server.close().then(
      async () => {
        await metricsServer?.close();
        await gateway.close();
        logger.info('gateway stopped');
        process.exit(0);
      },
      (err: unknown) => {
        logger.error({ err }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
}

main().catch((err: unknown) => {
  logger.fatal({ err }, `gateway failed to start: ${errorText(err)}`);
  process.exit(1);
});
