import { claimsOf, type Session } from '../../lib/auth/session';

export type GoogleResult = { kind: 'session'; session: Session } | { kind: 'error'; code: string; message: string };

/**
 * Reads what identity's Google callback put in the /login fragment: `#idToken=…&refreshToken=…&expiresIn=…
 * &firstLogin=…`, or `#error=<code>&message=…`. Null when the fragment holds neither.
 */
export function readGoogleFragment(hash: string, now = Date.now()): GoogleResult | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const error = params.get('error');
  if (error) return { kind: 'error', code: error, message: params.get('message') ?? '' };
  const idToken = params.get('idToken');
  const refreshToken = params.get('refreshToken');
  const expiresIn = Number(params.get('expiresIn'));
  if (!idToken || !refreshToken || !Number.isFinite(expiresIn) || expiresIn <= 0) return null;
  const claims = claimsOf(idToken);
  if (!claims.sub) return null;
  return {
    kind: 'session',
    session: {
      idToken,
      refreshToken,
      expiresAt: now + expiresIn * 1000,
      user: { uid: claims.sub, email: claims.email ?? '', firstLogin: params.get('firstLogin') === 'true' },
    },
  };
}
