/*
 * What a failed call to Google means for us. Errors come from the Vision client (google-gax: a gRPC `code` and,
 * over REST, the `httpStatusCode`), from the auth client's requests (gaxios: `status`) or from the network (no
 * status at all). Each is sorted into one kind, which decides what happens to the frame:
 *
 * - transient:    5xx, a timeout, no answer            -> retried with backoff here, then through the bus
 * - rate-limited: 429 / RESOURCE_EXHAUSTED per minute  -> the same; if it outlasts every retry, the quota is spent
 * - engine:       401, 403, a daily quota, a bad URL   -> the whole engine is refused: the upload fails
 * - invalid:      400 for a whole request              -> a batch is split; a single image is refused
 * - image:        Vision refused one image of a batch  -> that frame completes with a failure reason
 */

export type CloudFailureKind = 'transient' | 'rate-limited' | 'engine' | 'invalid' | 'image';
export type CloudApi = 'vision' | 'translation';

/** A failed call to Google, sorted; `reason` is a sentence a person can read, `message` keeps Google's words for the log. */
export class CloudApiError extends Error {
  constructor(
    readonly kind: CloudFailureKind,
    readonly api: CloudApi,
    readonly reason: string,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'CloudApiError';
  }

  get retryable(): boolean {
    return this.kind === 'transient' || this.kind === 'rate-limited';
  }
}

// gRPC status codes as google-gax reports them.
const GRPC = { UNKNOWN: 2, INVALID_ARGUMENT: 3, DEADLINE_EXCEEDED: 4, NOT_FOUND: 5, PERMISSION_DENIED: 7, RESOURCE_EXHAUSTED: 8, ABORTED: 10, INTERNAL: 13, UNAVAILABLE: 14, UNAUTHENTICATED: 16 } as const;
const TRANSIENT_GRPC: number[] = [GRPC.UNKNOWN, GRPC.DEADLINE_EXCEEDED, GRPC.ABORTED, GRPC.INTERNAL, GRPC.UNAVAILABLE];

const API_NAMES: Record<CloudApi, string> = { vision: 'Cloud Vision API', translation: 'Cloud Translation API' };

export const REASONS = {
  credentials: 'Cloud AI could not sign in to Google Cloud: this server’s Google credentials were refused. Your credits were not charged; choose Basic, or try again once the server is fixed.',
  permission: (api: CloudApi) =>
    `Google Cloud refused Cloud AI’s request: the ${API_NAMES[api]} is not enabled (or billing is off) for this server’s Google project. Your credits were not charged; choose Basic meanwhile.`,
  quota: 'Cloud AI has used up this server’s Google Cloud quota for now. Your credits were not charged; try again later or choose Basic.',
  misconfigured: (api: CloudApi) => `Cloud AI could not reach the ${API_NAMES[api]} at the address this server is set up with. Your credits were not charged; choose Basic meanwhile.`,
  translationRefused: (target: string) => `The captions could not be translated to “${target}”: Google Translate refused that language. Your credits were not charged; choose another target language or Same.`,
  unanswered: 'Cloud AI did not answer for this frame after several tries, so it was skipped (and not charged).',
  imageRefused: (detail: string) => `Cloud AI could not read this frame: ${detail}`,
} as const;

function numberOr(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Google's own account of the error: message plus ErrorInfo details, where a daily quota names itself. */
function detailsText(err: Record<string, unknown>): string {
  const parts = [err.message, err.errorInfoMetadata, err.statusDetails, (err.response as { data?: unknown } | undefined)?.data];
  return parts.map((p) => (typeof p === 'string' ? p : p === undefined ? '' : JSON.stringify(p))).join(' ');
}

/** Sorts an error thrown while calling one of Google's APIs. */
export function classifyGoogleError(raw: unknown, api: CloudApi): CloudApiError {
  if (raw instanceof CloudApiError) return raw;
  const err = (typeof raw === 'object' && raw !== null ? raw : { message: String(raw) }) as Record<string, unknown>;
  const message = typeof err.message === 'string' ? err.message : String(raw);
  const http = numberOr(err.httpStatusCode) ?? numberOr(err.status) ?? numberOr((err.response as { status?: unknown } | undefined)?.status);
  const grpc = numberOr(err.code);
  const make = (kind: CloudFailureKind, reason: string) => new CloudApiError(kind, api, reason, message, http);

  if (http === 401 || grpc === GRPC.UNAUTHENTICATED) return make('engine', REASONS.credentials);
  if (http === 403 || grpc === GRPC.PERMISSION_DENIED) return make('engine', REASONS.permission(api));
  if (http === 429 || grpc === GRPC.RESOURCE_EXHAUSTED) {
    // A per-day quota will not come back within any retry; a per-minute one does.
    return /per ?day/i.test(detailsText(err)) ? make('engine', REASONS.quota) : make('rate-limited', REASONS.quota);
  }
  if ((http !== undefined && http >= 500) || (grpc !== undefined && TRANSIENT_GRPC.includes(grpc))) return make('transient', REASONS.unanswered);
  if (http === 400 || grpc === GRPC.INVALID_ARGUMENT) return make('invalid', REASONS.imageRefused(message));
  if (http === 404 || grpc === GRPC.NOT_FOUND) return make('engine', REASONS.misconfigured(api));
  if (http !== undefined && http >= 400) return make('engine', REASONS.misconfigured(api));
  // No status at all: the connection failed or timed out.
  return make('transient', REASONS.unanswered);
}

/** One image's error inside a successful Vision batch answer ({ code, message } per image). */
export function imageError(error: { code?: number | null; message?: string | null }): CloudApiError {
  const code = error.code ?? GRPC.UNKNOWN;
  const message = error.message?.trim() || 'Vision gave no reason.';
  if (TRANSIENT_GRPC.includes(code) || code === GRPC.RESOURCE_EXHAUSTED) return new CloudApiError('transient', 'vision', REASONS.unanswered, message);
  if (code === GRPC.UNAUTHENTICATED || code === GRPC.PERMISSION_DENIED) return classifyGoogleError({ code, message }, 'vision');
  return new CloudApiError('image', 'vision', REASONS.imageRefused(message), message);
}

export interface RetryPolicy {
  /** Retries after the first try. */
  retries: number;
  baseMs: number;
  /** Waits (tests pass one that does not). */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
}

export const MAX_RETRY_WAIT_MS = 30_000;

/** The wait before retry n (0-based): base * 2^n, between half and all of it (jitter), at most 30 s. */
export function retryWait(policy: RetryPolicy, n: number): number {
  const full = Math.min(MAX_RETRY_WAIT_MS, policy.baseMs * 2 ** n);
  return Math.round(full * (0.5 + (policy.random ?? Math.random)() * 0.5));
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Calls `fn` until it succeeds, retrying transient and rate-limited failures with growing waits. */
export async function withRetries<T>(fn: () => Promise<T>, api: CloudApi, policy: RetryPolicy): Promise<T> {
  for (let n = 0; ; n++) {
    try {
      return await fn();
    } catch (raw) {
      const err = classifyGoogleError(raw, api);
      if (!err.retryable || n >= policy.retries) throw err;
      await (policy.sleep ?? sleep)(retryWait(policy, n));
    }
  }
}
