import { ENGINES, type Engine } from '@frametext/contracts';

/** Whether an OCR engine can be chosen now and, when not, why: a sentence the SPA shows as it is. */
export interface EngineStatus {
  engine: Engine;
  available: boolean;
  reason: string | null;
}

export const CLOUD_NOT_RUNNING_REASON = 'Cloud AI is not configured on this server; use Basic.';
export const CLOUD_UNCHECKED_REASON = 'Cloud AI cannot be checked right now (the message broker did not answer); use Basic.';

/** How long one look at the Cloud AI queue is reused: every page reads /api/config. */
export const ENGINE_CHECK_CACHE_MS = 2_000;

export interface EngineAvailabilityOptions {
  /** Counts a queue's consumers (the bus's queueStats). */
  queueConsumers(queue: string): Promise<number>;
  /** The Cloud AI workers' queue: ocr-cloud's service name. */
  cloudQueue: string;
  cacheMs?: number;
  now?: () => number;
}

export interface EngineAvailability {
  check(engine: Engine): Promise<EngineStatus>;
  /** Every engine, in the order of ENGINES. */
  all(): Promise<EngineStatus[]>;
}

/**
 * Engine availability taken from what runs, not from a flag kept in step by hand. Cloud AI is available while at
 * least one ocr-cloud worker consumes its queue: a worker without Google credentials never consumes, and one that
 * stops or crashes drops its consumer at once, so the answer follows reality within the cache time. Basic needs
 * nothing outside our stack (its frames wait in their durable queue through a worker restart) and Local runs in
 * the browser, so both are always offered.
 */
export function engineAvailability(opts: EngineAvailabilityOptions): EngineAvailability {
  const cacheMs = opts.cacheMs ?? ENGINE_CHECK_CACHE_MS;
  const now = opts.now ?? Date.now;
  let cached: { at: number; status: Promise<EngineStatus> } | undefined;

  const lookAtCloud = async (): Promise<EngineStatus> => {
    try {
      const consumers = await opts.queueConsumers(opts.cloudQueue);
      return consumers > 0 ? { engine: 'cloud', available: true, reason: null } : { engine: 'cloud', available: false, reason: CLOUD_NOT_RUNNING_REASON };
    } catch {
      return { engine: 'cloud', available: false, reason: CLOUD_UNCHECKED_REASON };
    }
  };

  const check = async (engine: Engine): Promise<EngineStatus> => {
    if (engine !== 'cloud') return { engine, available: true, reason: null };
    const t = now();
    if (!cached || t - cached.at >= cacheMs) cached = { at: t, status: lookAtCloud() };
    return cached.status;
  };

  return { check, all: () => Promise.all(ENGINES.map(check)) };
}
