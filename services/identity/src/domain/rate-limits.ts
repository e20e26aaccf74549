import type { IdentityContext } from './context.js';
import { authError } from './errors.js';
import { hitCounter } from '../data/rate-limits.js';

/** Counts one auth request from an address (client IP as the gateway forwarded it); 429 past the per-minute limit. */
export async function countIpRequest(ctx: IdentityContext, ip: string): Promise<void> {
  const count = await hitCounter(ctx.db, `ip:${ip}`, 60, 1);
  if (count > ctx.config.RATE_LIMIT_IP_PER_MINUTE) throw authError('auth/too-many-requests', undefined, { retryAfterSeconds: 60 });
}

const loginWindowSeconds = (ctx: IdentityContext) => ctx.config.RATE_LIMIT_LOGIN_WINDOW_MINUTES * 60;

/** Refuses a log-in once an address has had too many failures in the window, before any password is checked. */
export async function assertLoginAllowed(ctx: IdentityContext, email: string): Promise<void> {
  const failures = await hitCounter(ctx.db, `login-fail:${email}`, loginWindowSeconds(ctx), 0);
  if (failures >= ctx.config.RATE_LIMIT_LOGIN_FAILURES) {
    throw authError('auth/too-many-requests', undefined, { retryAfterSeconds: loginWindowSeconds(ctx) });
  }
}

export async function countLoginFailure(ctx: IdentityContext, email: string): Promise<void> {
  await hitCounter(ctx.db, `login-fail:${email}`, loginWindowSeconds(ctx), 1);
}

/** Bounds reset e-mails per address, so nobody can flood someone's inbox. */
export async function countResetRequest(ctx: IdentityContext, email: string): Promise<void> {
  const count = await hitCounter(ctx.db, `reset:${email}`, 3600, 1);
  if (count > ctx.config.RATE_LIMIT_RESET_PER_HOUR) throw authError('auth/too-many-requests', undefined, { retryAfterSeconds: 3600 });
}
