import type { Express, RequestHandler } from 'express';
import helmet from 'helmet';
import {
  AppError,
  FsObjectStorage,
  createFsObjectRouter,
  createHttpApp,
  createStorage,
  finishHttpApp,
  type HttpApp,
  type Logger,
  type ObjectStorage,
} from '@frametext/service-kit';
import { UPSTREAM_SERVICES, serviceUrl, type GatewayConfig } from './config.js';
import { createTokenVerifier, type TokenVerifier } from './auth.js';
import { corsFor } from './cors.js';
import { systemHealthHandler } from './health.js';
import { createProxy, type Proxy } from './proxy.js';
import { matchRoute } from './routes.js';
import { spaRouter } from './spa.js';

export interface Gateway {
  app: Express;
  http: HttpApp;
  /** The fs object store served at /files, when STORAGE_DRIVER is fs. */
  storage: ObjectStorage | undefined;
  /** Frees the upstream connection pools (after the HTTP server has closed). */
  close(): void;
}

export interface GatewayDeps {
  logger: Logger;
  verifier?: TokenVerifier;
}

/** Builds the gateway from its settings: security headers, the API route table, /files, the SPA, JSON errors. */
export function createGateway(config: GatewayConfig, deps: GatewayDeps): Gateway {
  const { logger } = deps;
  const verifier =
    deps.verifier ??
    createTokenVerifier({
      jwksUrl: config.JWKS_URL,
      audience: config.JWT_AUDIENCE,
      issuer: config.JWT_ISSUER,
      cacheMaxAgeMs: config.JWKS_CACHE_MAX_AGE_MS,
      requestsPerMinute: config.JWKS_REQUESTS_PER_MINUTE,
    });
  const proxy = createProxy({ timeoutMs: config.PROXY_TIMEOUT_MS, bodyLimitBytes: config.API_BODY_LIMIT_BYTES });
  const storage = config.STORAGE_DRIVER === 'fs' ? createStorage(config) : undefined;
  const storeProxy = createProxy({ timeoutMs: config.STORAGE_PROXY_TIMEOUT_MS, bodyLimitBytes: config.STORAGE_BODY_LIMIT_BYTES, preserveHost: true });

  // Bodies stream through untouched: services parse their own JSON, and webhook signatures need the raw bytes.
  const http = createHttpApp({ name: 'gateway', logger, parseJson: false });
  const { app } = http;
  app.set('trust proxy', config.TRUST_PROXY);
  if (storage) http.readiness.storage = () => storage.ping();

  app.use(securityHeaders(config));
  if (config.CORS_ORIGINS.length > 0) app.use(corsFor(config.CORS_ORIGINS));

  const services = Object.fromEntries(UPSTREAM_SERVICES.map((s) => [s, serviceUrl(config, s)]));
  app.get('/api/health', systemHealthHandler(services, config.HEALTH_TIMEOUT_MS));
  app.use(apiRoutes(config, verifier, proxy));

  if (storage instanceof FsObjectStorage) app.use('/files', createFsObjectRouter(storage));
  if (config.STORAGE_DRIVER === 's3' && config.S3_ENDPOINT) app.use(`/${config.STORAGE_BUCKET}`, objectStorePassThrough(storeProxy, config.S3_ENDPOINT));
  app.use(spaRouter(config.SPA_DIR));
  finishHttpApp(app, logger);

  return {
    app,
    http,
    storage,
    close: () => {
      proxy.close();
      storeProxy.close();
    },
  };
}

/** Dispatches /api/* by the route table: unknown paths 404, signed-in routes need a verified token. */
function apiRoutes(config: GatewayConfig, verifier: TokenVerifier, proxy: Proxy): RequestHandler {
  return async (req, res, next) => {
    if (!req.path.startsWith('/api/')) return next();
    const match = matchRoute(req.method, req.path);
    if (match.kind === 'none') return next();
    if (match.kind === 'method-not-allowed') {
      res.setHeader('allow', match.allowed.join(', '));
      return next(new AppError(405, 'request/method-not-allowed', `${req.method} is not allowed on ${req.path}.`));
    }
    const { route } = match;
    let userId: string | undefined;
    if (route.access === 'signed-in') {
      userId = (await verifier.verify(req.header('authorization'))).userId;
    } else if (req.header('authorization')) {
      // Public routes still learn who is calling when the token is good; a bad one is simply ignored here.
      userId = await verifier.verify(req.header('authorization')).then(
        (u) => u.userId,
        () => undefined,
      );
    }
    proxy.forward(req, res, next, { name: route.target, baseUrl: serviceUrl(config, route.target) }, userId);
  };
}

/**
 * With the s3 driver, presigned URLs point at the gateway's own origin (STORAGE_PUBLIC_URL) under the bucket's
 * path, and the gateway passes them to the object store with the Host header the URL was signed for. The store
 * itself stays on the private network, and the browser's PUTs are same-origin (no CORS on the store).
 */
function objectStorePassThrough(store: Proxy, endpoint: string): RequestHandler {
  return (req, res, next) => store.forward(req, res, next, { name: 'object storage', baseUrl: endpoint }, undefined);
}

function securityHeaders(config: GatewayConfig): RequestHandler {
  // Presigned URLs point at the object store (MinIO in containers), which the browser PUTs to and loads frames from.
  const storageOrigin = new URL(config.STORAGE_PUBLIC_URL).origin;
  const extra = config.CSP_EXTRA_ORIGINS;
  return helmet({
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", "'wasm-unsafe-eval'", ...extra],
        workerSrc: ["'self'", 'blob:'],
        imgSrc: ["'self'", 'blob:', 'data:', storageOrigin, ...extra],
        mediaSrc: ["'self'", 'blob:', storageOrigin],
        connectSrc: ["'self'", storageOrigin, ...extra],
        frameSrc: extra.length > 0 ? extra : ["'none'"],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        // Local development runs over plain http (gateway and MinIO alike); upgrading would break it.
        upgradeInsecureRequests: null,
      },
    },
  });
}
