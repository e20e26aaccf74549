import type { RequestHandler } from 'express';
import type { ServiceHealth, SystemHealth } from '@frametext/contracts';

export type { ServiceHealth, SystemHealth };

/** Asks every service's /health/ready in parallel; the system is ok only when all of them are. */
export async function checkServices(services: Record<string, string>, timeoutMs: number): Promise<SystemHealth> {
  const entries = await Promise.all(Object.entries(services).map(async ([name, baseUrl]) => [name, await checkOne(baseUrl, timeoutMs)] as const));
  const all = Object.fromEntries(entries);
  return { status: entries.every(([, h]) => h.status === 'ok') ? 'ok' : 'unavailable', services: all };
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

export function systemHealthHandler(services: Record<string, string>, timeoutMs: number): RequestHandler {
  return async (_req, res) => {
    const health = await checkServices(services, timeoutMs);
    res.setHeader('cache-control', 'no-store');
    res.status(health.status === 'ok' ? 200 : 503).json(health);
  };
}
