import type { RequestHandler } from 'express';
import type { ServiceHealth, SystemHealth } from '@frametext/contracts';

export type { ServiceHealth, SystemHealth };

/** What a worker an autoscaler may take to zero replicas says when none runs. */
const SCALED_TO_ZERO: ServiceHealth = { status: 'scaled-to-zero', checks: { http: 'no replica running; one starts when work arrives' } };

/**
 * Asks every service's /health/ready in parallel; the system is ok only when all of them are, or, for the services in
 * `onDemand` (workers an autoscaler runs from zero), when none of their replicas answers at all.
 */
export async function checkServices(services: Record<string, string>, timeoutMs: number, onDemand: readonly string[] = []): Promise<SystemHealth> {
  const entries = await Promise.all(
    Object.entries(services).map(async ([name, baseUrl]) => {
      const health = await checkOne(baseUrl, timeoutMs);
      return [name, health.status === 'unreachable' && onDemand.includes(name) ? SCALED_TO_ZERO : health] as const;
    }),
  );
  const all = Object.fromEntries(entries);
  return { status: entries.every(([, h]) => h.status === 'ok' || h.status === SCALED_TO_ZERO.status) ? 'ok' : 'unavailable', services: all };
}

async function checkOne(baseUrl: string, timeoutMs: number): Promise<ServiceHealth> {
  try {
    const res = await fetch(new URL('/health/ready', baseUrl), { signal: AbortSignal.timeout(timeoutMs) });
    const body = (await res.json().catch(() => ({}))) as { status?: unknown; checks?: unknown };
    const checks = isStringRecord(body.checks) ? body.checks : {};
    if (res.ok) return { status: 'ok', checks };
    return { status: typeof body.status === 'string' && body.status !== 'ok' ? body.status : `http ${res.status}`, checks };
  } catch (err) {
    const reason = err instanceof Error && err.name === 'TimeoutError' ? `no answer within ${timeoutMs} ms` : 'not reachable';
    return { status: 'unreachable', checks: { http: reason } };
  }
}

function isStringRecord(v: unknown): v is Record<string, string> {
  return typeof v === 'object' && v !== null && Object.values(v).every((x) => typeof x === 'string');
}

export function systemHealthHandler(services: Record<string, string>, timeoutMs: number, onDemand: readonly string[] = []): RequestHandler {
  return async (_req, res) => {
    const health = await checkServices(services, timeoutMs, onDemand);
    res.setHeader('cache-control', 'no-store');
    res.status(health.status === 'ok' ? 200 : 503).json(health);
  };
}
