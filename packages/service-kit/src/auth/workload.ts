import jwt from 'jsonwebtoken';
import { AppError } from '../errors/index.js';

/** The header a service-to-service call carries its workload token in (the user's own token stays in Authorization). */
export const WORKLOAD_HEADER = 'x-workload-token';

const ISSUER = 'frametext-workload';
const ALGORITHM = 'HS256';
const LIFETIME_SECONDS = 300;
/** A cached token is renewed when it has less than this left, so it never expires in flight. */
const RENEW_BEFORE_SECONDS = 60;

/**
 * Workload credentials: short-lived HS256 tokens, signed with the installation's SERVICE_TOKEN_SECRET, that name
 * the calling service (`sub`) and the one service they are for (`aud`). A callee accepts a call only with a token
 * for itself from a caller it lists, so a request that reaches a service port without the secret is refused.
 */
export class WorkloadCredentials {
  private readonly cache = new Map<string, { token: string; renewAt: number }>();

  constructor(
    private readonly secret: string,
    /** The service these credentials speak for. */
    readonly self: string,
  ) {}

  /** A token for calling `audience`, reused while it has more than a minute left. */
  token(audience: string): string {
    const now = Math.floor(Date.now() / 1000);
    const cached = this.cache.get(audience);
    if (cached && cached.renewAt > now) return cached.token;
    const token = jwt.sign({}, this.secret, { algorithm: ALGORITHM, issuer: ISSUER, subject: this.self, audience, expiresIn: LIFETIME_SECONDS });
    this.cache.set(audience, { token, renewAt: now + LIFETIME_SECONDS - RENEW_BEFORE_SECONDS });
    return token;
  }

  /** The header to send on a call to `audience`. */
  headers(audience: string): Record<string, string> {
    return { [WORKLOAD_HEADER]: this.token(audience) };
  }

  /**
   * Checks a token presented to `audience` and answers the caller's name. A missing, forged, expired or misdirected
   * token, or a caller not in `callers` (when given), is a 401.
   */
  verify(token: string | undefined, audience: string, callers?: readonly string[]): string {
    if (!token) throw workloadRefused('This route is for FrameText services only; the call carries no workload token.');
    let claims: jwt.JwtPayload | string;
    try {
      claims = jwt.verify(token, this.secret, { algorithms: [ALGORITHM], issuer: ISSUER, audience });
    } catch {
      throw workloadRefused('The workload token is not valid for this service.');
    }
    const caller = typeof claims === 'string' ? undefined : claims.sub;
    if (!caller) throw workloadRefused('The workload token does not name its caller.');
    if (callers && !callers.includes(caller)) throw workloadRefused(`The ${caller} service may not call this route.`);
    return caller;
  }
}

function workloadRefused(message: string): AppError {
  return new AppError(401, 'auth/workload-refused', message);
}
