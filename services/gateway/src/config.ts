import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { serviceConfig } from '@frametext/service-kit';

/** The one port table of the system. Each service's own config defaults to its row; every one can be overridden by env. */
export const SERVICE_PORTS = {
  gateway: 8080,
  identity: 8101,
  upload: 8102,
  'frame-extraction': 8103,
  'ocr-tesseract': 8104,
  'ocr-cloud': 8105,
  billing: 8106,
  results: 8107,
} as const;

/** Services behind the gateway, in the order /api/health reports them. */
export const UPSTREAM_SERVICES = ['identity', 'upload', 'frame-extraction', 'ocr-tesseract', 'ocr-cloud', 'billing', 'results'] as const;
export type UpstreamService = (typeof UPSTREAM_SERVICES)[number];

const localUrl = (service: UpstreamService) => z.string().url().default(`http://127.0.0.1:${SERVICE_PORTS[service]}`);

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
  PORT: z.coerce.number().int().min(0).max(65535).default(SERVICE_PORTS.gateway),
  IDENTITY_URL: localUrl('identity'),
  UPLOAD_URL: localUrl('upload'),
  FRAME_EXTRACTION_URL: localUrl('frame-extraction'),
  OCR_TESSERACT_URL: localUrl('ocr-tesseract'),
  OCR_CLOUD_URL: localUrl('ocr-cloud'),
  BILLING_URL: localUrl('billing'),
  RESULTS_URL: localUrl('results'),
  /** Where the access tokens' public keys are published (identity's JWKS, or a hosted provider's). */
  JWKS_URL: z.string().url().default(`http://127.0.0.1:${SERVICE_PORTS.identity}/api/auth/jwks.json`),
  JWKS_CACHE_MAX_AGE_MS: z.coerce.number().int().min(0).default(600_000),
  JWKS_REQUESTS_PER_MINUTE: z.coerce.number().int().min(1).default(10),
  JWT_AUDIENCE: z.string().min(1).default('frametext'),
  JWT_ISSUER: z.string().min(1).default('frametext-identity'),
  /** The spec's API timeout: a proxied call that takes longer answers 504. */
  PROXY_TIMEOUT_MS: z.coerce.number().int().min(100).default(300_000),
  /** Largest request body forwarded to a service (bytes). */
  API_BODY_LIMIT_BYTES: z.coerce.number().int().min(1).default(1024 * 1024),
  /** Largest object the browser may PUT through the gateway to the S3 store (bytes). */
  STORAGE_BODY_LIMIT_BYTES: z.coerce.number().int().min(1).default(5 * 1024 ** 3),
  /** Time the S3 store may take to answer a PUT passed through the gateway (it answers after the last byte). */
  STORAGE_PROXY_TIMEOUT_MS: z.coerce.number().int().min(100).default(3_600_000),
  /** How long /api/health waits for each service's /health/ready. */
  HEALTH_TIMEOUT_MS: z.coerce.number().int().min(50).default(2_000),
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
