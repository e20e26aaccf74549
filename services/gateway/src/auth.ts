import jwt from 'jsonwebtoken';
import jwksRsa from 'jwks-rsa';
import { AppError, forbidden } from '@frametext/service-kit';

export interface AuthOptions {
  jwksUrl: string;
  audience: string;
  issuer: string;
  cacheMaxAgeMs: number;
  requestsPerMinute: number;
}

export interface VerifiedUser {
  userId: string;
}

/** Verifies access tokens: RS256 only, signed by a key the JWKS publishes under the token's kid, for our audience and issuer. */
export interface TokenVerifier {
  /** Throws a 403 AppError (the spec's sign-out signal) for anything but a valid token; 503 when the JWKS cannot be fetched. */
  verify(authorization: string | undefined): Promise<VerifiedUser>;
}

const ALGORITHM = 'RS256';

export function createTokenVerifier(opts: AuthOptions): TokenVerifier {
  const jwks = jwksRsa({
    jwksUri: opts.jwksUrl,
    cache: true,
    cacheMaxEntries: 10,
    cacheMaxAge: opts.cacheMaxAgeMs,
    // An unknown kid triggers a refetch (key rotation); the rate limit keeps forged kids from hammering the JWKS.
    rateLimit: true,
    jwksRequestsPerMinute: opts.requestsPerMinute,
    timeout: 5_000,
  });

  return {
    async verify(authorization) {
      const token = bearerToken(authorization);
      const decoded = jwt.decode(token, { complete: true });
      if (!decoded || typeof decoded.payload === 'string') throw invalidToken('The access token is malformed.');
      if (decoded.header.alg !== ALGORITHM) throw invalidToken('The access token is not signed with an accepted algorithm.');
      const kid = decoded.header.kid;
      if (!kid) throw invalidToken('The access token does not name its signing key.');

      let publicKey: string;
      try {
        publicKey = (await jwks.getSigningKey(kid)).getPublicKey();
      } catch (err) {
        if ((err as { isEndpointUnavailable?: boolean }).isEndpointUnavailable) {
          throw new AppError(503, 'gateway/service-unavailable', 'Sign-in cannot be checked right now. Please try again shortly.', { cause: err });
        }
        throw invalidToken('The access token is signed with an unknown key.');
      }

      let payload: jwt.JwtPayload | string;
      try {
        payload = jwt.verify(token, publicKey, { algorithms: [ALGORITHM], audience: opts.audience, issuer: opts.issuer });
      } catch (err) {
        if (err instanceof jwt.TokenExpiredError) throw forbidden('auth/token-expired', 'Your session has expired. Please sign in again.');
        throw invalidToken('The access token is not valid.');
      }
      if (typeof payload === 'string' || typeof payload.sub !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(payload.sub)) {
        throw invalidToken('The access token does not name a user.');
      }
      return { userId: payload.sub };
    },
  };
}

function bearerToken(authorization: string | undefined): string {
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(authorization ?? '');
  if (!match) throw forbidden('auth/missing-token', 'Please sign in to continue.');
  return match[1]!;
}

const invalidToken = (message: string) => forbidden('auth/invalid-token', `${message} Please sign in again.`);
