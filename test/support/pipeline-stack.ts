// Every service of the pipeline started in-process on the real Postgres and RabbitMQ, behind a real gateway,
// isolated from other test files by its own exchange, queue names, schemas and storage folder.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createDb, listen, parseConfig, serverTimeouts, startService, type BaseConfig, type Knex, type ObjectStorage, type RunningServer, type ServiceDefinition } from '@frametext/service-kit';
import { TEST_DATABASE_URL, TEST_RABBITMQ_URL, deleteBrokerObjects, dropSchemas, testLogger, uniqueName } from '@frametext/service-kit/testing';
import { createGateway, type Gateway } from '../../services/gateway/src/app.js';
import { gatewayConfigSchema } from '../../services/gateway/src/config.js';
import { identityService } from '../../services/identity/src/service.js';
import { loadConfig as identityConfig } from '../../services/identity/src/config.js';
import { billingService } from '../../services/billing/src/service.js';
import { loadConfig as billingConfig } from '../../services/billing/src/config.js';
import { uploadService } from '../../services/upload/src/service.js';
import { loadConfig as uploadConfig } from '../../services/upload/src/config.js';
import type { ResultsContext } from '../../services/results/src/domain/context.js';
import { resultsService } from '../../services/results/src/service.js';
import { loadConfig as resultsConfig } from '../../services/results/src/config.js';
import { frameExtractionService } from '../../services/frame-extraction/src/service.js';
import { loadConfig as frameExtractionConfig } from '../../services/frame-extraction/src/config.js';
import { ocrTesseractService } from '../../services/ocr-tesseract/src/service.js';
import { loadConfig as ocrTesseractConfig } from '../../services/ocr-tesseract/src/config.js';
import { ocrCloudService } from '../../services/ocr-cloud/src/service.js';
import { loadConfig as ocrCloudConfig } from '../../services/ocr-cloud/src/config.js';
import { FakeGoogle, fixedTokenAccess } from '../../services/ocr-cloud/test/support/fake-google.js';
import type { RecordedCall } from './openapi-check.js';
import { followUpload, type UntilOptions, type UploadStatus } from './upload-status.js';
import { confirmEmail, mailboxMessages } from '../../scripts/lib/mailbox.mjs';

type Stoppable = { stop(): Promise<void>; port: number; metricsPort?: number };

/** Every service the stack starts (the gateway keeps no data). */
const STACK_SERVICES = ['identity', 'billing', 'upload', 'results', 'frame-extraction', 'ocr-tesseract', 'ocr-cloud'];

export interface PipelineStack {
  base: string;
  /** The gateway's fs store, which it serves at /files (to sign URLs as the upload service does). */
  files: ObjectStorage;
  /** The folder identity writes its mail to (no SMTP_URL): one .eml file a message. */
  mailbox: string;
  /** Calls the public API as a browser would. */
  api(method: string, route: string, body?: unknown, token?: string, headers?: Record<string, string>): Promise<{ status: number; body: any }>;
  /** Every call made with `api` and what it answered, in order (checked against /api/openapi.json). */
  calls: RecordedCall[];
  /** Waits for an upload as the SPA follows it (upload-status.ts): by default until it has ended, processed or failed. */
  untilUpload(token: string, uploadID: string, opts?: UntilOptions): Promise<UploadStatus>;
  /** Signs a user up, confirms their e-mail by the mailed link and waits for the free credit grant. */
  signUp(): Promise<{ token: string; email: string; password: string; refreshToken: string; uid: string }>;
  /** Starts one more OCR worker (for crash tests, or to resume after stopOcrWorkers); returns a stop function. */
  addOcrWorker(): Promise<Stoppable>;
  /** The local fake of Google's Vision and Translation APIs that the Cloud AI worker (ocr-cloud) calls. */
  google: FakeGoogle;
  /**
   * Starts one more gateway replica, as its own process (the built services/gateway/dist/main.js), with the same
   * settings as the first and in front of the same services; answers its base URL. Stopped with the stack.
   */
  addGatewayProcess(): Promise<string>;
  /** Stops every OCR worker: frames wait in their queue until addOcrWorker, so an upload stays mid-processing. */
  stopOcrWorkers(): Promise<void>;
  /** The results service's use-case context (its scheduled jobs can be run with a chosen clock). */
  results: ResultsContext;
  /** What a service's metrics listener answers now (Prometheus' text format). */
  metrics(service: 'results' | 'ocr-tesseract' | 'upload'): Promise<string>;
  /** The name a service of the stack runs under, which is its queue's too (`<stack id>_ocr-tesseract`). */
  queue(service: string): string;
  /** A view of one service's schema (`results`, `ocr-tesseract`...), to see what it has handled or published. */
  db(service: string): Knex;
  /** The Postgres schema of every service of the stack: all the tables it keeps. */
  schemas: string[];
  stop(): Promise<void>;
}

/**
 * A free port, held until `release` (just before the gateway listens on it): the services started in between take
 * ports of their own (port 0), and so do parallel test files; a port let go early can be one of theirs by then.
 */
async function reservePort(): Promise<{ port: number; release(): Promise<void> }> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const { port } = srv.address() as { port: number };
  return { port, release: () => new Promise<void>((resolve) => srv.close(() => resolve())) };
}

export async function startPipelineStack(env: Record<string, string> = {}): Promise<PipelineStack> {
  const id = uniqueName('pipe');
  const nameOf = (service: string) => `${id}_${service}`;
  const google = await new FakeGoogle().start();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'frametext-pipeline-'));
  const reserved = await reservePort();
  const gatewayPort = reserved.port;
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
    // Cloud AI is offered while the stack's ocr-cloud worker consumes its queue.
    OCR_CLOUD_QUEUE: nameOf('ocr-cloud'),
    // Packs are sold through billing's simulated checkout, turned on as npm start turns it on (never on by default).
    SIMULATED_CHECKOUT: 'true',
    // Tests poll far faster than a person does: the per-person request budget is out of their way unless a test
    // about it sets its own.
    REQUESTS_PER_MINUTE_PER_PERSON: '100000',
    ...env,
  };
  const running: Stoppable[] = [];
  const start = async <C extends BaseConfig & { PORT: number }>(def: ServiceDefinition<C>): Promise<Stoppable> => {
    const r = await startService(def);
    running.push(r);
    return r;
  };
  const opts = (service: string) => ({ name: nameOf(service), dbSchema: `${id}_${service.replace(/-/g, '_')}`, logger: testLogger(service) });

  const identity = await start(identityService(identityConfig({ ...shared, PORT: '0' }), opts('identity')));
  // Every other service verifies access tokens against identity's JWKS and follows its feed of ended sessions.
  shared.IDENTITY_URL = `http://127.0.0.1:${identity.port}`;
  const billing = await start(billingService(billingConfig({ ...shared, PORT: '0' }), opts('billing')));
  const upload = await start(uploadService(uploadConfig({ ...shared, PORT: '0', BILLING_URL: `http://127.0.0.1:${billing.port}` }), opts('upload')));
  let resultsCtx: ResultsContext | undefined;
  const results = await start(resultsService(resultsConfig({ ...shared, PORT: '0', UPLOAD_URL: `http://127.0.0.1:${upload.port}` }), { ...opts('results'), onContext: (c) => (resultsCtx = c) }));
  const frames = await start(frameExtractionService(frameExtractionConfig({ ...shared, PORT: '0' }), opts('frame-extraction')));
  const ocrOpts = opts('ocr-tesseract');
  const ocrWorkers: Stoppable[] = [];
  const addOcrWorker = async () => {
    const worker = await start(ocrTesseractService(ocrTesseractConfig({ ...shared, PORT: '0' }), ocrOpts));
    ocrWorkers.push(worker);
    return worker;
  };
  const ocr = await addOcrWorker();
  const cloudEnv = { ...shared, PORT: '0', VISION_API_URL: google.url, TRANSLATE_API_URL: google.url, CLOUD_RETRY_BASE_MS: '10' };
  const cloud = await start(ocrCloudService(ocrCloudConfig(cloudEnv), { ...opts('ocr-cloud'), google: fixedTokenAccess() }));
  const views = new Map<string, Knex>();

  const url = (r: Stoppable) => `http://127.0.0.1:${r.port}`;
  const gatewayEnv: Record<string, string> = {
    ...shared,
    HOST: '127.0.0.1',
    UPLOAD_URL: url(upload),
    FRAME_EXTRACTION_URL: url(frames),
    OCR_TESSERACT_URL: url(ocr),
    OCR_CLOUD_URL: url(cloud),
    BILLING_URL: url(billing),
    RESULTS_URL: url(results),
  };
  const gatewayConfig = parseConfig(gatewayConfigSchema, { ...gatewayEnv, PORT: String(gatewayPort) });
  const gateway: Gateway = createGateway(gatewayConfig, { logger: testLogger('gateway') });
  await reserved.release();
  const server: RunningServer = await listen(gateway.app, gatewayPort, '127.0.0.1', serverTimeouts(gatewayConfig));
  gateway.start();

  const gatewayProcesses: Stoppable[] = [];
  const addGatewayProcess = async (): Promise<string> => {
    const replica = await startGatewayProcess(gatewayEnv);
    gatewayProcesses.push(replica);
    return `http://127.0.0.1:${replica.port}`;
  };

  const calls: RecordedCall[] = [];
  const api: PipelineStack['api'] = async (method, route, body, token, headers = {}) => {
    const res = await fetch(`${base}/api${route}`, {
      method,
      headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    calls.push({ method, route, requestBody: body, status: res.status, contentType: res.headers.get('content-type'), body: parsed });
    return { status: res.status, body: parsed };
  };

  const untilUpload: PipelineStack['untilUpload'] = (token, uploadID, opts) => followUpload(() => api('GET', `/checkUploadStatus/${uploadID}`, undefined, token), uploadID, opts);

  if (!gateway.storage) throw new Error('the pipeline stack runs the fs store, served by the gateway');
  const files = gateway.storage;

  return {
    base,
    files,
    mailbox: path.join(dataDir, 'mailbox'),
    api,
    untilUpload,
    calls,
    addOcrWorker,
    addGatewayProcess,
    google,
    async stopOcrWorkers() {
      for (const worker of ocrWorkers.splice(0)) await worker.stop();
    },
    results: resultsCtx!,
    async metrics(service) {
      const port = { results, 'ocr-tesseract': ocr, upload }[service].metricsPort;
      return (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
    },
    queue: nameOf,
    schemas: STACK_SERVICES.map((s) => `${id}_${s.replace(/-/g, '_')}`),
    db(service) {
      const schema = `${id}_${service.replace(/-/g, '_')}`;
      if (!views.has(schema)) views.set(schema, createDb(TEST_DATABASE_URL, schema, { max: 1 }));
      return views.get(schema)!;
    },
    async signUp() {
      const email = `${uniqueName('user')}@example.com`;
      const password = 'pipeline-pass-1';
      const res = await api('POST', '/auth/signup', { email, password });
      if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
      const token = res.body.idToken as string;
      const signedUp = { token, email, password, refreshToken: res.body.refreshToken as string, uid: res.body.user.uid as string };
      // The free credits come once the address is confirmed, as a person does it: the link in the mail.
      await confirmEmail(base, email, () => mailboxMessages(path.join(dataDir, 'mailbox')));
      for (let i = 0; i < 200; i++) {
        const profile = await api('GET', '/getUserData', undefined, token);
        if (profile.body?.credits > 0) return signedUp;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error('the free credit grant never arrived');
    },
    async stop() {
      for (const view of views.values()) await view.destroy();
      for (const replica of gatewayProcesses) await replica.stop();
      await server.close();
      await gateway.close();
      for (const r of running.reverse()) await r.stop().catch(() => undefined);
      await google.stop();
      await deleteBrokerObjects(shared.BUS_EXCHANGE!, STACK_SERVICES.map(nameOf));
      await dropSchemas(`${id}_`);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const gatewayMain = fileURLToPath(new URL('../../services/gateway/dist/main.js', import.meta.url));

/** The built gateway in a process of its own on a port of its choosing, read from its "gateway ready" log line. */
async function startGatewayProcess(env: Record<string, string>): Promise<Stoppable> {
  const child = spawn(process.execPath, [gatewayMain], {
    env: { PATH: process.env.PATH ?? '', ...env, PORT: '0', METRICS_PORT: 'off', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const lines = createInterface({ input: child.stdout });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the second gateway did not start within 30 s')), 30_000);
    void exited.then((code) => reject(new Error(`the second gateway exited with ${code} (is services/gateway built?)`)));
    lines.on('line', (line) => {
      const entry = (() => {
        try {
          return JSON.parse(line) as { msg?: string; port?: number };
        } catch {
          return {};
        }
      })();
      if (entry.msg === 'gateway ready' && typeof entry.port === 'number') {
        clearTimeout(timer);
        resolve(entry.port);
      }
    });
  });
  // Keep reading its log so a full pipe never blocks it.
  lines.on('line', () => undefined);
  return {
    port,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
