import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { z } from 'zod';
import { errorText } from '@frametext/service-kit';

const discoverySchema = z.object({
  issuer: z.string(),
  authorization_endpoint: z.string().url(),
  token_endpoint: z.string().url(),
  jwks_uri: z.string().url(),
});
export type OidcDiscovery = z.infer<typeof discoverySchema>;

const tokenResponseSchema = z.object({ id_token: z.string().min(1) });
const jwksSchema = z.object({ keys: z.array(z.object({ kid: z.string().optional(), kty: z.string() }).passthrough()) });

export interface OidcIdentity {
  sub: string;
  email: string;
  emailVerified: boolean;
  nonce: string | undefined;
}

export class OidcError extends Error {}

const FETCH_TIMEOUT_MS = 10_000;
const CACHE_MS = 60 * 60_000;

/** A relying-party client for one OpenID provider: discovery, code exchange (with PKCE) and id_token verification against the provider's JWKS. */
export class OidcClient {
  private discovery: { value: OidcDiscovery; at: number } | undefined;
  private keys: { byKid: Map<string, KeyObject>; at: number } | undefined;

  constructor(
    readonly opts: { issuer: string; clientId: string; clientSecret: string; redirectUri: string },
  ) {}

  async discover(): Promise<OidcDiscovery> {
    if (this.discovery && Date.now() - this.discovery.at < CACHE_MS) return this.discovery.value;
    const url = `${this.opts.issuer.replace(/\/+$/, '')}/.well-known/openid-configuration`;
    const value = discoverySchema.parse(await getJson(url));
    if (value.issuer.replace(/\/+$/, '') !== this.opts.issuer.replace(/\/+$/, '')) throw new OidcError(`discovery issuer ${value.issuer} is not ${this.opts.issuer}`);
    this.discovery = { value, at: Date.now() };
    return value;
  }

  async authorizationUrl(params: { state: string; nonce: string; codeChallenge: string }): Promise<string> {
    const { authorization_endpoint } = await this.discover();
    const url = new URL(authorization_endpoint);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: this.opts.clientId,
      redirect_uri: this.opts.redirectUri,
      scope: 'openid email profile',
      state: params.state,
      nonce: params.nonce,
      code_challenge: params.codeChallenge,
      code_challenge_method: 'S256',
    }).toString();
    return url.toString();
  }

  /** Exchanges the authorization code for tokens and answers the verified identity in the id_token. */
  async redeemCode(code: string, codeVerifier: string): Promise<OidcIdentity> {
    const { token_endpoint } = await this.discover();
    const res = await fetch(token_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: this.opts.redirectUri,
        client_id: this.opts.clientId,
        client_secret: this.opts.clientSecret,
        code_verifier: codeVerifier,
      }),
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    if (!res.ok) throw new OidcError(`token endpoint answered ${res.status}`);
    const { id_token } = tokenResponseSchema.parse(await res.json());
    return this.verifyIdToken(id_token);
  }

  private async verifyIdToken(idToken: string): Promise<OidcIdentity> {
    const decoded = jwt.decode(idToken, { complete: true });
    if (!decoded || typeof decoded.payload === 'string') throw new OidcError('id_token is not a JWT');
    const key = await this.publicKey(decoded.header.kid);
    const { issuer } = await this.discover();
    // Google signs some id_tokens with the issuer without its scheme.
    const issuers: [string, ...string[]] = [issuer, issuer.replace(/^https:\/\//, '')];
    let claims: jwt.JwtPayload;
    try {
      claims = jwt.verify(idToken, key, { algorithms: ['RS256'], issuer: issuers, audience: this.opts.clientId, clockTolerance: 60 }) as jwt.JwtPayload;
    } catch (err) {
      throw new OidcError(`id_token rejected: ${errorText(err)}`);
    }
    if (typeof claims.sub !== 'string' || typeof claims.email !== 'string') throw new OidcError('id_token has no sub or email');
    const verified = claims.email_verified === true || claims.email_verified === 'true';
    return { sub: claims.sub, email: claims.email, emailVerified: verified, nonce: typeof claims.nonce === 'string' ? claims.nonce : undefined };
  }

  /** The provider key for a kid; an unknown kid refetches the JWKS once (the provider rotated its keys). */
  private async publicKey(kid: string | undefined): Promise<KeyObject> {
    const pick = () => (kid ? this.keys?.byKid.get(kid) : this.keys && this.keys.byKid.size === 1 ? [...this.keys.byKid.values()][0] : undefined);
    if (!this.keys || Date.now() - this.keys.at > CACHE_MS || !pick()) await this.loadKeys();
    const key = pick();
    if (!key) throw new OidcError(`no provider key for kid ${kid ?? '(none)'}`);
    return key;
  }

  private async loadKeys(): Promise<void> {
    const { jwks_uri } = await this.discover();
    const { keys } = jwksSchema.parse(await getJson(jwks_uri));
    const byKid = new Map<string, KeyObject>();
    for (const jwk of keys) {
      if (jwk.kty !== 'RSA') continue;
      byKid.set(jwk.kid ?? '', createPublicKey({ key: jwk as JsonWebKey, format: 'jwk' }));
    }
    this.keys = { byKid, at: Date.now() };
  }
}

async function getJson(url: string): Promise<unknown> {
  const res = await fetch(url, { headers: { accept: 'application/json' }, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
  if (!res.ok) throw new OidcError(`${url} answered ${res.status}`);
  return res.json();
}
