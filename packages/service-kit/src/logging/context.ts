import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** What travels with one request or one message through a service: the correlation id above all. */
export interface RequestContext {
  correlationId: string;
  /** Id of the message being handled, so events it publishes name it as their cause. */
  causationId?: string;
  /** The user whose access token the request carried, once verified. */
  userId?: string;
}

const storage = new AsyncLocalStorage<RequestContext>();

export const CORRELATION_HEADER = 'x-correlation-id';

export function runWithContext<T>(ctx: RequestContext, fn: () => T): T {
  return storage.run(ctx, fn);
}

export function currentContext(): RequestContext | undefined {
  return storage.getStore();
}

export function correlationId(): string {
  return storage.getStore()?.correlationId ?? randomUUID();
}

/** Accepts a caller's correlation id only if it looks like one (no log injection). */
export function sanitizeCorrelationId(value: unknown): string | undefined {
  return typeof value === 'string' && /^[A-Za-z0-9._:-]{8,128}$/.test(value) ? value : undefined;
}
