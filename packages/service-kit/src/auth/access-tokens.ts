import { createPublicKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import jwksRsa from 'jwks-rsa';
import { AppError } from '../errors/index.js';
import { API_TOKEN_SCOPES, type ApiTokenScope } from '@frametext/contracts';
import type { ApiTokenGrant } from './api-token-scopes.js';
import type { RevokedSessions } from './revocations.js';

export interface AccessTokenSettings {
  /** Where the access tokens' public keys are published (identity's JWKS, or a hosted provider's). */
  jwksUrl: string;
  audience: string;
  issuer: string;
  cacheMaxAgeMs: number;
  requestsPerMinute: number;
}

export interface VerifiedUser {
  userId: string;
  /** The sign-in session the token belongs to (claim `sid`), when the issuer names one. */
  sessionId: string | undefined;
  /** The token itself, for a call made on the user's behalf (upload asking billing to hold their credits). */
  token: string;
  /**
   * Present when the token stands for a personal API token (the gateway exchanged one at identity): its id (the
   * `sid`) and its scope (claim `scope`). Absent for a browser session's token, which may do anything its owner may.
   */
  apiToken?: ApiTokenGrant;
}

/** Why a token was refused, with the code and sentence the answer carries. */
export type TokenProblem = { code: string; message: string };

/** Verifies access tokens: RS256 only, signed by a key the JWKS publishes under the token's kid, for our audience and issuer. */
export interface AccessTokenVerifier {
  /**
   * Answers the verified user, or throws an AppError with `status` for anything but a valid token of a session
   * that has not ended (503 when the JWKS cannot be fetched).
   */
  verify(authorization: string | undefined, status: 401 | 403): Promise<VerifiedUser>;
}

const ALGORITHM = 'RS256';

export function createAccessTokenVerifier(settings: AccessTokenSettings, revoked?: RevokedSessions): AccessTokenVerifier {
  const jwks = jwksRsa({
    jwksUri: settings.jwksUrl,
    cache: true,
    cacheMaxEntries: 10,
    cacheMaxAge: settings.cacheMaxAgeMs,
    // An unknown kid triggers a refetch (key rotation); the rate limit keeps forged kids from hammering the JWKS.
    rateLimit: true,
    jwksRequestsPerMinute: settings.requestsPerMinute,
    timeout: 5_000,
  });
  // Given a PEM, jsonwebtoken parses it into a key object on every call: the JWKS's few keys are parsed once.
  const keyObjects = new Map<string, KeyObject>();
  const keyObjectOf = (pem: string): KeyObject => {
    let key = keyObjects.get(pem);
    if (!key) {
      if (keyObjects.size >= 10) keyObjects.clear();
      key = createPublicKey(pem);
      keyObjects.set(pem, key);
    }
    return key;
  };

  async function check(authorization: string | undefined): Promise<VerifiedUser> {
    const token = bearerToken(authorization);
    const decoded = jwt.decode(token, { complete: true });
    if (!decoded || typeof decoded.payload === 'string') throw invalidToken('The access token is malformed.');
    if (decoded.header.alg !== ALGORITHM) throw invalidToken('The access token is not signed with an accepted algorithm.');
    const kid = decoded.header.kid;
    if (!kid) throw invalidToken('The access token does not name its signing key.');

    let publicKey: KeyObject;
    try {
      publicKey = keyObjectOf((await jwks.getSigningKey(kid)).getPublicKey());
    } catch (err) {
      if ((err as { isEndpointUnavailable?: boolean }).isEndpointUnavailable) {
        throw new AppError(503, 'auth/keys-unavailable', 'Sign-in cannot be checked right now. Please try again shortly.', { cause: err });
      }
      throw invalidToken('The access token is signed with an unknown key.');
    }

    let payload: jwt.JwtPayload | string;
    try {
      payload = jwt.verify(token, publicKey, { algorithms: [ALGORITHM], audience: settings.audience, issuer: settings.issuer });
    } catch (err) {
      if (err instanceof jwt.TokenExpiredError) throw refusal('auth/token-expired', 'Your session has expired. Please sign in again.');
      throw invalidToken('The access token is not valid.');
    }
    if (typeof payload === 'string' || typeof payload.sub !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(payload.sub)) {
      throw invalidToken('The access token does not name a user.');
    }
    const sessionId = typeof payload.sid === 'string' ? payload.sid : undefined;
    const scope: unknown = payload.scope;
    if (scope !== undefined && (!sessionId || !API_TOKEN_SCOPES.includes(scope as ApiTokenScope))) throw invalidToken('The access token names an unknown scope.');
    if (sessionId && revoked?.has(sessionId)) {
      if (scope !== undefined) throw refusal('auth/api-token-invalid', 'This API token was revoked or does not exist.');
      throw refusal('auth/session-ended', 'You have signed out of this session. Please sign in again.');
    }
    const user: VerifiedUser = { userId: payload.sub, sessionId, token };
    if (scope !== undefined) user.apiToken = { id: sessionId!, scope: scope as ApiTokenScope };
    return user;
  }

  return {
    async verify(authorization, status) {
      try {
        return await check(authorization);
      } catch (err) {
        if (err instanceof TokenRefusal) throw new AppError(status, err.problem.code, err.problem.message);
        throw err;
      }
    },
  };
}

/** A refusal whose status the caller picks: the gateway answers 403 (the SPA's sign-out signal), services 401. */
class TokenRefusal extends Error {
  constructor(readonly problem: TokenProblem) {
    super(problem.message);
  }
}

const refusal = (code: string, message: string) => new TokenRefusal({ code, message });
const invalidToken = (message: string) => refusal('auth/invalid-token', `${message} Please sign in again.`);

function bearerToken(authorization: string | undefined): string {
  const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(authorization ?? '');
  if (!match) throw refusal('auth/missing-token', 'Please sign in to continue.');
  return match[1]!;
}
