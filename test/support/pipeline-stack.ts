// Every service of the pipeline started in-process on the real Postgres and RabbitMQ, behind a real gateway,
// isolated from other test files by its own exchange, queue names, schemas and storage folder.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { listen, parseConfig, startService, type BaseConfig, type RunningServer, type ServiceDefinition } from '@frametext/service-kit';
import { TEST_DATABASE_URL, TEST_RABBITMQ_URL, deleteBrokerObjects, dropSchemas, testLogger, uniqueName } from '@frametext/service-kit/testing';
import { createGateway, type Gateway } from '../../services/gateway/src/app.js';
import { gatewayConfigSchema } from '../../services/gateway/src/config.js';
import { identityService } from '../../services/identity/src/service.js';
import { loadConfig as identityConfig } from '../../services/identity/src/config.js';
import { billingService } from '../../services/billing/src/service.js';
import { loadConfig as billingConfig } from '../../services/billing/src/config.js';
import { uploadService } from '../../services/upload/src/service.js';
import { loadConfig as uploadConfig } from '../../services/upload/src/config.js';
import { resultsService } from '../../services/results/src/service.js';
import { loadConfig as resultsConfig } from '../../services/results/src/config.js';
import { frameExtractionService } from '../../services/frame-extraction/src/service.js';
import { loadConfig as frameExtractionConfig } from '../../services/frame-extraction/src/config.js';
import { ocrTesseractService } from '../../services/ocr-tesseract/src/service.js';
import { loadConfig as ocrTesseractConfig } from '../../services/ocr-tesseract/src/config.js';

type Stoppable = { stop(): Promise<void>; port: number };

export interface PipelineStack {
  base: string;
  /** Calls the public API as a browser would. */
  api(method: string, route: string, body?: unknown, token?: string): Promise<{ status: number; body: any }>;
  /** Signs a user up and waits for the free credit grant. */
  signUp(): Promise<{ token: string; email: string }>;
  /** Starts one more OCR worker (for crash tests); returns a stop function. */
  addOcrWorker(): Promise<Stoppable>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export async function startPipelineStack(env: Record<string, string> = {}): Promise<PipelineStack> {
  const id = uniqueName('pipe');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'frametext-pipeline-'));
  const gatewayPort = await freePort();
  const base = `http://127.0.0.1:${gatewayPort}`;
  const shared: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATA_DIR: dataDir,
    DATABASE_URL: TEST_DATABASE_URL,
    RABBITMQ_URL: TEST_RABBITMQ_URL,
    BUS_EXCHANGE: `${id}_exchange`,
    BUS_RETRY_DELAY_MS: '200',
    BUS_MAX_ATTEMPTS: '3',
    STORAGE_DRIVER: 'fs',
    STORAGE_FS_ROOT: path.join(dataDir, 'objects'),
    STORAGE_SIGNING_SECRET: 'pipeline-test-signing-secret-0123456789',
    STORAGE_PUBLIC_URL: base,
    DEMO_SEED: 'false',
    ...env,
  };
  const running: Stoppable[] = [];
  const start = async <C extends BaseConfig & { PORT: number }>(def: ServiceDefinition<C>): Promise<Stoppable> => {
    const r = await startService(def);
    running.push(r);
    return r;
  };
  const opts = (service: string) => ({ name: `${id}_${service}`, dbSchema: `${id}_${service.replace(/-/g, '_')}`, logger: testLogger(service) });

  const identity = await start(identityService(identityConfig({ ...shared, PORT: '0' }), opts('identity')));
  const billing = await start(billingService(billingConfig({ ...shared, PORT: '0' }), opts('billing')));
  const upload = await start(uploadService(uploadConfig({ ...shared, PORT: '0', BILLING_URL: `http://127.0.0.1:${billing.port}` }), opts('upload')));
  const results = await start(resultsService(resultsConfig({ ...shared, PORT: '0' }), opts('results')));
  const frames = await start(frameExtractionService(frameExtractionConfig({ ...shared, PORT: '0' }), opts('frame-extraction')));
  const ocrOpts = opts('ocr-tesseract');
  const addOcrWorker = () => start(ocrTesseractService(ocrTesseractConfig({ ...shared, PORT: '0' }), ocrOpts));
  const ocr = await addOcrWorker();

  const url = (r: Stoppable) => `http://127.0.0.1:${r.port}`;
  const gateway: Gateway = createGateway(
    parseConfig(gatewayConfigSchema, {
      ...shared,
      PORT: String(gatewayPort),
      IDENTITY_URL: url(identity),
      UPLOAD_URL: url(upload),
      FRAME_EXTRACTION_URL: url(frames),
      OCR_TESSERACT_URL: url(ocr),
      OCR_CLOUD_URL: 'http://127.0.0.1:9',
      BILLING_URL: url(billing),
      RESULTS_URL: url(results),
      JWKS_URL: `${url(identity)}/api/auth/jwks.json`,
    }),
    { logger: testLogger('gateway') },
  );
  const server: RunningServer = await listen(gateway.app, gatewayPort, '127.0.0.1');

  const api: PipelineStack['api'] = async (method, route, body, token) => {
    const res = await fetch(`${base}/api${route}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed };
  };

  return {
    base,
    api,
    addOcrWorker,
    async signUp() {
      const email = `${uniqueName('user')}@example.com`;
      const res = await api('POST', '/auth/signup', { email, password: 'pipeline-pass-1' });
      if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
      const token = res.body.idToken as string;
      for (let i = 0; i < 200; i++) {
        const profile = await api('GET', '/getUserData', undefined, token);
        if (profile.body?.credits > 0) return { token, email };
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('the free credit grant never arrived');
    },
    async stop() {
      await server.close();
      gateway.close();
      for (const r of running.reverse()) await r.stop().catch(() => undefined);
      await deleteBrokerObjects(shared.BUS_EXCHANGE!, ['identity', 'billing', 'upload', 'results', 'frame-extraction', 'ocr-tesseract'].map((s) => `${id}_${s}`));
      await dropSchemas(`${id}_`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
