import path from 'node:path';
import { listen, parseConfig, serverTimeouts, type RunningServer } from '@frametext/service-kit';
import { testLogger } from '@frametext/service-kit/testing';
import { createGateway, type Gateway, type GatewayDeps } from '../src/app.js';
import { gatewayConfigSchema, type UpstreamService } from '../src/config.js';
import type { FakeService, Identity } from './support.js';

/** What a test gateway is wired to: a fake for each service, identity's keys and feed, a folder for files. */
export interface GatewaySurroundings {
  upstream: Record<UpstreamService, FakeService>;
  identity: Identity;
  /** The store's objects go under `objects/`, the SPA is looked for under `spa/`. */
  dir: string;
}

/** A test gateway's settings: every service and identity point at the fakes; `overrides` set the rest. */
export function gatewaySettings({ upstream, identity, dir }: GatewaySurroundings, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    PORT: '0',
    IDENTITY_URL: upstream.identity.url,
    UPLOAD_URL: upstream.upload.url,
    FRAME_EXTRACTION_URL: upstream['frame-extraction'].url,
    OCR_TESSERACT_URL: upstream['ocr-tesseract'].url,
    OCR_CLOUD_URL: upstream['ocr-cloud'].url,
    BILLING_URL: upstream.billing.url,
    RESULTS_URL: upstream.results.url,
    JWKS_URL: identity.url,
    REVOCATIONS_URL: identity.revocationsUrl,
    SPA_DIR: path.join(dir, 'spa'),
    STORAGE_DRIVER: 'fs',
    STORAGE_FS_ROOT: path.join(dir, 'objects'),
    ...overrides,
  };
}

export interface RunningGateway {
  gateway: Gateway;
  server: RunningServer;
  base: string;
}

/** Starts a gateway as main.ts does (store ready, feed of ended sessions polled), on a free port. */
export async function startGateway(env: Record<string, string>, deps: Partial<GatewayDeps> = {}): Promise<RunningGateway> {
  const config = parseConfig(gatewayConfigSchema, env);
  const gateway = createGateway(config, { logger: testLogger('gateway'), ...deps });
  await gateway.storage?.ensureReady();
  const server = await listen(gateway.app, 0, '127.0.0.1', serverTimeouts(config));
  gateway.start();
  return { gateway, server, base: `http://127.0.0.1:${server.port}` };
}
