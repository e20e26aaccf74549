import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { SERVICE_REGISTRY, UPSTREAM_SERVICE_NAMES, servicePort, type ServiceName, type UpstreamServiceName } from '@frametext/contracts';
import { serviceConfig } from '@frametext/service-kit';

/** Every process's default port, from the service registry (packages/contracts/src/registry.js). */
export const SERVICE_PORTS = Object.fromEntries(SERVICE_REGISTRY.map((s) => [s.name, s.port])) as Readonly<Record<ServiceName, number>>;

/** Services behind the gateway, in the order /api/health reports them (the registry's order). */
export const UPSTREAM_SERVICES: readonly UpstreamServiceName[] = UPSTREAM_SERVICE_NAMES;
export type UpstreamService = UpstreamServiceName;

const localUrl = (service: UpstreamService) => z.string().url().default(`http://127.0.0.1:${servicePort(service)}`);

// <repo>/frontend/dist, from both src/config.ts and dist/config.js.
const defaultSpaDir = fileURLToPath(new URL('../../../frontend/dist', import.meta.url));

const csvList = z
  .string()
  .default('')
  .transform((s) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  );

export const gatewayConfigSchema = serviceConfig({
  PORT: z.coerce.number().int().min(0).max(65535).default(servicePort('gateway')),
  /** The public door: every interface (the services behind it listen on loopback). */
  HOST: z.string().min(1).default('0.0.0.0'),
  /** Where the metrics listener (METRICS_PORT) binds: loopback, unlike the public HOST; 0.0.0.0 in containers for Prometheus. */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  UPLOAD_URL: localUrl('upload'),
  FRAME_EXTRACTION_URL: localUrl('frame-extraction'),
  OCR_TESSERACT_URL: localUrl('ocr-tesseract'),
  OCR_CLOUD_URL: localUrl('ocr-cloud'),
  BILLING_URL: localUrl('billing'),
  RESULTS_URL: localUrl('results'),
  /** The spec's API timeout: a proxied call that takes longer answers 504. */
  PROXY_TIMEOUT_MS: z.coerce.number().int().min(100).default(300_000),
  /** Largest request body forwarded to a service (bytes). */
  API_BODY_LIMIT_BYTES: z.coerce.number().int().min(1).default(1024 * 1024),
  /**
   * The whole body of an API call must arrive within this time, or the gateway answers 408 and closes the
   * connection. API bodies are at most API_BODY_LIMIT_BYTES (1 MB): 30 s is enough on a poor mobile link, and a
   * client that trickles or stalls a body stops holding a socket here and one at the service.
   */
  API_BODY_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  /**
   * An upload (PUT to /files or to the S3 pass-through) that sends nothing for this long is cut with 408 and
   * stores nothing. Uploads may be large and slow, so they have no total limit below HTTP_REQUEST_TIMEOUT_MS.
   */
  STORAGE_BODY_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  /**
   * Longest a client may take to send a whole request, body included (Node's requestTimeout; 0 turns it off): the
   * backstop behind the clocks above, so it is as long as the slowest upload the store accepts.
   */
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(0).default(3_600_000),
  /**
   * Idle time of a kept-alive client connection. Above the idle timeout of the load balancers usually put in front
   * (60 s), so that the balancer, not the gateway, closes idle connections and never reuses one being closed.
   */
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(100).default(65_000),
  /** Largest object the browser may PUT through the gateway to the S3 store (bytes). */
  STORAGE_BODY_LIMIT_BYTES: z.coerce.number().int().min(1).default(5 * 1024 ** 3),
  /** Time the S3 store may take to answer a PUT passed through the gateway (it answers after the last byte). */
  STORAGE_PROXY_TIMEOUT_MS: z.coerce.number().int().min(100).default(3_600_000),
  /** How long /api/health waits for each service's /health/ready. */
  HEALTH_TIMEOUT_MS: z.coerce.number().int().min(50).default(2_000),
  /**
   * Comma-separated workers an autoscaler may scale to zero (KEDA: ocr-tesseract): /api/health reports one that no
   * replica answers for as `scaled-to-zero`, not as a fault.
   */
  HEALTH_ON_DEMAND: csvList,
  /** Comma-separated origins allowed to call the API cross-origin; empty means no CORS at all. */
  CORS_ORIGINS: csvList,
  /** Comma-separated extra origins the SPA may load scripts, frames, images and calls from (e.g. Google sign-in). */
  CSP_EXTRA_ORIGINS: csvList,
  /**
   * Which proxies in front of the gateway may name the client address (X-Forwarded-For), in Express's trust-proxy
   * syntax. Default: only loopback. Behind an ingress controller on a private network use `uniquelocal`.
   * Services rate-limit by this address, so trusting too much lets clients pick their own.
   */
  TRUST_PROXY: z.string().min(1).default('loopback'),
  /**
   * How long the answer of an API-token exchange at identity is reused: the longest a revoked personal token can
   * still be accepted (the feed of ended sessions usually refuses it sooner, within REVOCATIONS_POLL_MS).
   */
  API_TOKEN_CACHE_MS: z.coerce.number().int().min(0).max(30_000).default(5_000),
  /**
   * Requests a minute each person may make on signed-in routes, all their API tokens and browser sessions together (a
   * burst of as many, refilled continuously), counted by identity for all gateway replicas together
   * (docs/security.md). Well above the web app's own use (a page load makes at most a handful of counted calls, a
   * busy tab a few dozen a minute). Give every replica the same value.
   */
  REQUESTS_PER_MINUTE_PER_PERSON: z.coerce.number().int().min(1).max(100_000).default(300),
  /** How long an API-token exchange at identity may take before the request answers 503. */
  API_TOKEN_EXCHANGE_TIMEOUT_MS: z.coerce.number().int().min(100).default(3_000),
  /**
   * How long a request that must wait for identity's count of its person's budget waits (a burst spends requests
   * leased ahead and waits for nothing). Past it, or while identity is down, each replica counts the person alone
   * against the same limit: fail open to the per-replica limit, never a 5xx for a request within budget.
   */
  REQUEST_BUDGET_TIMEOUT_MS: z.coerce.number().int().min(50).default(1_000),
  /** Folder of the built SPA (index.html and assets/). */
  SPA_DIR: z.string().min(1).default(defaultSpaDir),
});

export type GatewayConfig = z.infer<typeof gatewayConfigSchema>;

export function serviceUrl(config: GatewayConfig, service: UpstreamService): string {
  const urls: Record<UpstreamService, string> = {
    identity: config.IDENTITY_URL,
    upload: config.UPLOAD_URL,
    'frame-extraction': config.FRAME_EXTRACTION_URL,
    'ocr-tesseract': config.OCR_TESSERACT_URL,
    'ocr-cloud': config.OCR_CLOUD_URL,
    billing: config.BILLING_URL,
    results: config.RESULTS_URL,
  };
  return urls[service];
}
