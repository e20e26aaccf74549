import { z } from 'zod';
import { AppError, CORRELATION_HEADER, correlationId, traceHeaders, unavailable, type Logger, type WorkloadCredentials } from '@frametext/service-kit';
import {
  chargeLocalUseResponseSchema,
  reserveCreditsResponseSchema,
  type ChargeLocalUseRequest,
  type ChargeLocalUseResponse,
  type ReserveCreditsRequest,
  type ReserveCreditsResponse,
} from '@frametext/contracts';

/** Billing's internal route that holds credits for an upload (idempotent by uploadId). */
export const RESERVE_PATH = '/internal/credits/reserve';
/** Billing's internal route that charges a Local engine run (idempotent by user and uploadId). */
export const LOCAL_USE_PATH = '/internal/credits/local-use';

export const INSUFFICIENT_CREDITS_MESSAGE = 'Not enough credits, purchase some more before uploading.';

const errorBodySchema = z.object({
  error: z.object({ code: z.string().min(1), message: z.string().min(1), details: z.unknown().optional() }),
});

/**
 * What asking billing for a hold came to. `refused`: billing answered, and an answer other than 200 holds nothing
 * (its transaction rolled back). `unknown`: no answer to rely on (unreachable, timed out, a 5xx, a body outside the
 * contract): billing may hold credits for the upload, so the caller must cancel it.
 */
export type ReserveOutcome =
  | { outcome: 'held'; quote: ReserveCreditsResponse }
  | { outcome: 'refused'; error: AppError }
  | { outcome: 'unknown'; error: AppError };

/** What asking billing to charge a Local engine run came to (same meanings as ReserveOutcome). */
export type LocalChargeOutcome =
  | { outcome: 'charged'; charge: ChargeLocalUseResponse }
  | { outcome: 'refused'; error: AppError }
  | { outcome: 'unknown'; error: AppError };

export interface BillingClient {
  /**
   * Holds credits for an upload on behalf of the user whose access token is given (billing checks it, and this
   * service's workload token). A 402 comes back as the same 402, anything else unusable as a 503; never throws.
   */
  reserve(req: ReserveCreditsRequest, accessToken: string): Promise<ReserveOutcome>;
  /**
   * Charges a Local engine run to the user whose access token is given, once per upload id (a repeat answers the
   * first charge). A 402 (credits short) comes back as the same 402, anything else unusable as a 503; never throws.
   */
  chargeLocalUse(req: ChargeLocalUseRequest, accessToken: string): Promise<LocalChargeOutcome>;
}

export const billingUnavailable = () =>
  unavailable('upload/billing-unavailable', 'Credits cannot be checked right now, so the upload cannot start. Please try again in a minute.');

type CallOutcome<T> = { outcome: 'ok'; body: T } | { outcome: 'refused'; error: AppError } | { outcome: 'unknown'; error: AppError };

export function httpBillingClient(opts: { baseUrl: string; timeoutMs: number; logger: Logger; credentials: WorkloadCredentials }): BillingClient {
  /** One internal call with both proofs; an answer is trusted only when it is 200 and in the contract. */
  async function call<T>(path: string, schema: z.ZodType<T>, req: { uploadId: string }, accessToken: string, what: string): Promise<CallOutcome<T>> {
    const url = new URL(path, opts.baseUrl).toString();
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${accessToken}`,
          ...opts.credentials.headers('billing'),
          [CORRELATION_HEADER]: correlationId(),
          ...traceHeaders(),
        },
        body: JSON.stringify(req),
        signal: AbortSignal.timeout(opts.timeoutMs),
      });
    } catch (err) {
      opts.logger.warn({ err, url, uploadId: req.uploadId }, `billing unreachable or too slow; the ${what} is unknown`);
      return { outcome: 'unknown', error: billingUnavailable() };
    }
    const body: unknown = await res.json().catch(() => undefined);
    if (res.status === 402) {
      const parsed = errorBodySchema.safeParse(body);
      if (parsed.success) {
        const { code, message, details } = parsed.data.error;
        return { outcome: 'refused', error: new AppError(402, code, message, { details }) };
      }
      return { outcome: 'refused', error: new AppError(402, 'billing/insufficient-credits', INSUFFICIENT_CREDITS_MESSAGE) };
    }
    if (res.status >= 400 && res.status < 500) {
      opts.logger.error({ status: res.status, body, uploadId: req.uploadId }, `billing refused a ${what}`);
      return { outcome: 'refused', error: billingUnavailable() };
    }
    if (!res.ok) {
      opts.logger.error({ status: res.status, body, uploadId: req.uploadId }, `billing failed a ${what}; it is unknown`);
      return { outcome: 'unknown', error: billingUnavailable() };
    }
    const parsed = schema.safeParse(body);
    if (!parsed.success) {
      opts.logger.error({ body, issues: parsed.error.issues, uploadId: req.uploadId }, `billing answered a ${what} outside its contract; it is unknown`);
      return { outcome: 'unknown', error: billingUnavailable() };
    }
    return { outcome: 'ok', body: parsed.data };
  }

  return {
    async reserve(req, accessToken) {
      const r = await call(RESERVE_PATH, reserveCreditsResponseSchema, req, accessToken, 'reservation');
      return r.outcome === 'ok' ? { outcome: 'held', quote: r.body } : r;
    },
    async chargeLocalUse(req, accessToken) {
      const r = await call(LOCAL_USE_PATH, chargeLocalUseResponseSchema, req, accessToken, 'local charge');
      return r.outcome === 'ok' ? { outcome: 'charged', charge: r.body } : r;
    },
  };
}
