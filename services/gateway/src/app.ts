import type { Express, Request, RequestHandler } from 'express';
import type { LookupFunction } from 'node:net';
import helmet from 'helmet';
import {
  AppError,
  bucketAddress,
  FsObjectStorage,
  assertApiTokenAllowed,
  RevokedSessions,
  WorkloadCredentials,
  accessTokenSettings,
  createAccessTokenVerifier,
  createFsObjectRouter,
  createHttpApp,
  createServiceMetrics,
  type ServiceMetrics,
  createStorage,
  finishHttpApp,
  googleErrorHandler,
  googleNotFound,
  httpRevocationSource,
  revocationsUrl,
  startTracing,
  tracingSettings,
  type AccessTokenVerifier,
  type ApiTokenRequirement,
  type BucketAddress,
  type HttpApp,
  type Logger,
  type ObjectStorage,
} from '@frametext/service-kit';
import { ANNOTATE_BODY_LIMIT_BYTES, looksLikeApiToken, requestBudgetResponseSchema } from '@frametext/contracts';
import { ApiTokenGate } from './api-tokens.js';
import { postToIdentity } from './identity-calls.js';
import { RequestBudget } from './request-budget.js';
import { UPSTREAM_SERVICES, serviceUrl, type GatewayConfig } from './config.js';
import { corsFor } from './cors.js';
import { systemHealthHandler } from './health.js';
import { createProxy, type Proxy } from './proxy.js';
import { OPENAPI_PATH, openApiDocument, openApiHandler } from './openapi.js';
import { GOOGLE_PREFIX, matchRoute, ROUTED_PREFIXES } from './routes.js';
import { spaRouter } from './spa.js';

/** How long leased requests may be spent before they go back: bounds the overshoot to this share of a minute's budget. */
const LEASE_MS = 5_000;
/** After identity failed to count, how long a replica counts alone before it asks again. */
const RETRY_IDENTITY_MS = 5_000;

export interface Gateway {
  app: Express;
  http: HttpApp;
  /** Its Prometheus metrics (requests by route), served apart from the API by main. */
  metrics: ServiceMetrics;
  /** The fs object store served at /files, when STORAGE_DRIVER is fs. */
  storage: ObjectStorage | undefined;
  /** Starts following ended sessions (identity's feed). */
  start(): void;
  /** Stops following ended sessions and frees the upstream connection pools (after the HTTP server has closed). */
  close(): Promise<void>;
}

export interface GatewayDeps {
  logger: Logger;
  /** Resolves the object store's host names; default the system's resolver. */
  storeLookup?: LookupFunction;
}

/** Builds the gateway from its settings: security headers, the API route table, /files, the SPA, JSON errors. */
export function createGateway(config: GatewayConfig, deps: GatewayDeps): Gateway {
  const { logger, storeLookup } = deps;
  const feed = revocationsUrl(config);
  const revoked = feed
    ? new RevokedSessions(httpRevocationSource(feed, new WorkloadCredentials(config.SERVICE_TOKEN_SECRET, 'gateway')), config.REVOCATIONS_POLL_MS, logger)
    : undefined;
  const verifier = createAccessTokenVerifier(accessTokenSettings(config), revoked);
  const credentials = new WorkloadCredentials(config.SERVICE_TOKEN_SECRET, 'gateway');
  const apiTokens = new ApiTokenGate({
    exchangeUrl: new URL('/internal/api-tokens/exchange', config.IDENTITY_URL).toString(),
    credentials,
    cacheMs: config.API_TOKEN_CACHE_MS,
    exchangeTimeoutMs: config.API_TOKEN_EXCHANGE_TIMEOUT_MS,
  });
  const budgetUrl = new URL('/internal/request-budget', config.IDENTITY_URL).toString();
  const budget = new RequestBudget({
    requestsPerMinute: config.REQUESTS_PER_MINUTE_PER_PERSON,
    lease: (request) => postToIdentity(budgetUrl, request, { credentials, timeoutMs: config.REQUEST_BUDGET_TIMEOUT_MS, parse: (body) => requestBudgetResponseSchema.parse(body) }),
    leaseMs: LEASE_MS,
    retryIdentityMs: RETRY_IDENTITY_MS,
    logger,
  });
  const proxy = createProxy({ timeoutMs: config.PROXY_TIMEOUT_MS, bodyLimitBytes: config.API_BODY_LIMIT_BYTES, body: { totalMs: config.API_BODY_TIMEOUT_MS } });
  // videos:annotate carries the video itself: large, and as slow as an upload may be, but not silent.
  const videoProxy = createProxy({ timeoutMs: config.PROXY_TIMEOUT_MS, bodyLimitBytes: ANNOTATE_BODY_LIMIT_BYTES, body: { idleMs: config.STORAGE_BODY_IDLE_TIMEOUT_MS } });
  const storage = config.STORAGE_DRIVER === 'fs' ? createStorage(config) : undefined;
  const storeProxy = createProxy({
    timeoutMs: config.STORAGE_PROXY_TIMEOUT_MS,
    bodyLimitBytes: config.STORAGE_BODY_LIMIT_BYTES,
    lookup: storeLookup,
    hideClientHost: true,
    body: { idleMs: config.STORAGE_BODY_IDLE_TIMEOUT_MS },
  });

  // Bodies stream through untouched: services parse their own JSON, and webhook signatures need the raw bytes.
  const metrics = createServiceMetrics('gateway');
  // The public's sampled flag is not believed: a browser's trace id is kept, the decision to record is ours.
  const tracing = startTracing('gateway', tracingSettings(config, false));
  const http = createHttpApp({ name: 'gateway', logger, parseJson: false, metrics, tracer: tracing.tracer });
  const { app } = http;
  app.set('trust proxy', config.TRUST_PROXY);
  // The store serves files, not log-in or the API: reported, not required.
  if (storage) http.reported.storage = () => storage.ping();
  if (revoked) http.readiness.revocations = () => revoked.check();

  app.use(securityHeaders(config));
  if (config.CORS_ORIGINS.length > 0) app.use(corsFor(config.CORS_ORIGINS));

  const services = Object.fromEntries(UPSTREAM_SERVICES.map((s) => [s, serviceUrl(config, s)]));
  app.get('/api/health', systemHealthHandler(services, config.HEALTH_TIMEOUT_MS, config.HEALTH_ON_DEMAND));
  // Built at start: a route without a description (or the reverse) stops the gateway here, not a reader later.
  app.get(OPENAPI_PATH, openApiHandler(openApiDocument()));
  app.use(apiRoutes(config, { verifier, apiTokens, budget }, { api: proxy, video: videoProxy }));
  // The Google-compatible paths: unknown ones and every refusal above in Google's error body.
  app.use(GOOGLE_PREFIX, googleNotFound, googleErrorHandler(logger));

  if (storage instanceof FsObjectStorage) app.use('/files', createFsObjectRouter(storage, { bodyIdleTimeoutMs: config.STORAGE_BODY_IDLE_TIMEOUT_MS }));
  if (config.STORAGE_DRIVER === 's3' && config.S3_ENDPOINT) {
    const address = bucketAddress(config.S3_ENDPOINT, config.STORAGE_BUCKET, config.S3_ADDRESSING);
    app.use(`/${config.STORAGE_BUCKET}`, objectStorePassThrough(storeProxy, address));
  }
  app.use(spaRouter(config.SPA_DIR));
  finishHttpApp(app, logger);

  return {
    app,
    http,
    metrics,
    storage,
    start: () => revoked?.start(),
    close: async () => {
      await revoked?.stop();
      proxy.close();
      videoProxy.close();
      storeProxy.close();
      await tracing.shutdown().catch((err: unknown) => logger.warn({ err }, 'could not send the last spans'));
    },
  };
}

/** How the gateway knows who signs a request, and counts what each person asks for. */
interface SignedInGates {
  verifier: AccessTokenVerifier;
  apiTokens: ApiTokenGate;
  budget: RequestBudget;
}

/**
 * Dispatches /api/* by the route table: unknown paths 404, signed-in routes need a verified token (a refused one
 * answers 403, the spec's sign-out signal) and a request left in its person's budget (429 with Retry-After), however
 * the person signed it: any API token or browser session of theirs counts against the one budget. The token travels
 * on unchanged: each service verifies it again. A personal API token is exchanged for an access token, which travels
 * in its place (see signedInWithApiToken).
 */
function apiRoutes(config: GatewayConfig, gates: SignedInGates, proxies: { api: Proxy; video: Proxy }): RequestHandler {
  return async (req, res, next) => {
    if (!ROUTED_PREFIXES.some((prefix) => req.path.startsWith(prefix))) return next();
    const match = matchRoute(req.method, req.path);
    if (match.kind === 'none') return next();
    if (match.kind === 'method-not-allowed') {
      res.setHeader('allow', match.allowed.join(', '));
      return next(new AppError(405, 'request/method-not-allowed', `${req.method} is not allowed on ${req.path}.`));
    }
    const { route } = match;
    res.locals.route = route.path;
    if (route.access === 'signed-in') {
      const bearer = bearerOf(req.header('authorization'));
      const userId =
        bearer && looksLikeApiToken(bearer)
          ? await signedInWithApiToken(req, bearer, route.apiToken ?? 'refused', gates)
          : (await gates.verifier.verify(req.header('authorization'), 403)).userId;
      await gates.budget.spend(userId, (seconds) => res.setHeader('retry-after', String(seconds)));
    }
    (route.inlineVideo ? proxies.video : proxies.api).forward(req, res, next, { name: route.target, baseUrl: serviceUrl(config, route.target) });
  };
}

/**
 * A request signed with a personal API token: the token must be live (401 otherwise, not the SPA's 403: scripts
 * hold these) and hold the scope the route needs (403). The access token identity exchanged it for replaces it in
 * the forwarded request; it is verified here as any other, so a token revoked since the exchange is refused as soon
 * as the feed of ended sessions lists it. Answers the token's owner, whose budget the request spends.
 */
async function signedInWithApiToken(req: Request, presented: string, need: ApiTokenRequirement, gates: SignedInGates): Promise<string> {
  const grant = await gates.apiTokens.exchange(presented);
  const authorization = `Bearer ${grant.accessToken}`;
  const user = await gates.verifier.verify(authorization, 401);
  // identity's answer names the scope too, should the access token ever lack its claim.
  assertApiTokenAllowed(user.apiToken ?? { id: grant.tokenId, scope: grant.scope }, need);
  req.headers.authorization = authorization;
  return user.userId;
}

function bearerOf(authorization: string | undefined): string | undefined {
  return /^Bearer[ ]+([^\s]+)\s*$/i.exec(authorization ?? '')?.[1];
}

/**
 * With the s3 driver, presigned URLs point at the gateway's own origin (S3_PUBLIC_ENDPOINT) as `/<bucket>/<key>`,
 * but are signed for the bucket's address on the store: the gateway sends `<key>` there, in the store's addressing
 * style, and the Host is the store's, never the browser's. The store itself stays on the private network, and the
 * browser's PUTs are same-origin (no CORS on the store).
 */
function objectStorePassThrough(store: Proxy, address: BucketAddress): RequestHandler {
  // req.url is what follows the bucket's mount path.
  return (req, res, next) => store.forward(req, res, next, { name: 'object storage', baseUrl: address.origin, path: address.pathPrefix + req.url });
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
        // The Local engine: tesseract.js compiles its WebAssembly core ('wasm-unsafe-eval', no 'unsafe-eval') in
        // workers started from our own files (workerBlobURL off), which fetch the core and model from /assets.
        scriptSrc: ["'self'", "'wasm-unsafe-eval'", ...extra],
        workerSrc: ["'self'"],
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
