import { z } from 'zod';
import { AppError, CORRELATION_HEADER, correlationId, unavailable, type Logger } from '@frametext/service-kit';
import { reserveCreditsResponseSchema, type ReserveCreditsRequest, type ReserveCreditsResponse } from '@frametext/contracts';

/** Billing's internal route that holds credits for an upload (idempotent by uploadId). */
export const RESERVE_PATH = '/internal/credits/reserve';

export const INSUFFICIENT_CREDITS_MESSAGE = 'Not enough credits, purchase some more before uploading.';

const errorBodySchema = z.object({
  error: z.object({ code: z.string().min(1), message: z.string().min(1), details: z.unknown().optional() }),
});

export interface BillingClient {
  /** Holds credits for an upload; a 402 from billing comes back as the same 402, anything else unusable as a 503. */
  reserve(req: ReserveCreditsRequest): Promise<ReserveCreditsResponse>;
}

const billingUnavailable = () =>
  unavailable('upload/billing-unavailable', 'Credits cannot be checked right now, so the upload cannot start. Please try again in a minute.');

export function httpBillingClient(opts: { baseUrl: string; timeoutMs: number; logger: Logger }): BillingClient {
  const url = new URL(RESERVE_PATH, opts.baseUrl).toString();
  return {
    async reserve(req) {
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', [CORRELATION_HEADER]: correlationId() },
          body: JSON.stringify(req),
          signal: AbortSignal.timeout(opts.timeoutMs),
        });
      } catch (err) {
        opts.logger.warn({ err, url }, 'billing unreachable');
        throw billingUnavailable();
      }
      const body: unknown = await res.json().catch(() => undefined);
      if (res.status === 402) {
        const parsed = errorBodySchema.safeParse(body);
        if (parsed.success) {
          const { code, message, details } = parsed.data.error;
          throw new AppError(402, code, message, { details });
        }
        throw new AppError(402, 'billing/insufficient-credits', INSUFFICIENT_CREDITS_MESSAGE);
      }
      if (!res.ok) {
        opts.logger.error({ status: res.status, body }, 'billing refused a reservation');
        throw billingUnavailable();
      }
      const parsed = reserveCreditsResponseSchema.safeParse(body);
      if (!parsed.success) {
        opts.logger.error({ body, issues: parsed.error.issues }, 'billing answered a reservation outside its contract');
        throw billingUnavailable();
      }
      return parsed.data;
    },
  };
}
