import { createApi, fetchBaseQuery, type BaseQueryApi, type BaseQueryFn, type FetchArgs, type FetchBaseQueryError } from '@reduxjs/toolkit/query/react';
import { signedIn, signedOut } from './auth/authSlice';
import { saveSession, sessionFromAnswer, type Session } from './auth/session';

/** The spec's API timeout. */
export const API_TIMEOUT_MS = 300_000;
/** Refresh the access token this long before it expires. */
const REFRESH_MARGIN_MS = 60_000;

interface StateWithAuth {
  auth: { session: Session | null };
}

const rawBaseQuery = fetchBaseQuery({
  baseUrl: '/api',
  timeout: API_TIMEOUT_MS,
  prepareHeaders(headers, { getState }) {
    const token = (getState() as StateWithAuth).auth.session?.idToken;
    if (token) headers.set('authorization', `Bearer ${token}`);
    return headers;
  },
});

let refreshing: Promise<Session | null> | null = null;

/**
 * Trades the refresh token for new tokens, once at a time: identity treats two uses of one refresh token as
 * theft, so every caller (and, through a Web Lock, every tab) shares the same refresh.
 */
export function refreshSession(current: Session, apply: (s: Session | null) => void): Promise<Session | null> {
  refreshing ??= (async () => {
    const run = async () => {
      // Another tab may have refreshed while this one waited for the lock.
      const stored = localStorage.getItem('frametext.session');
      const latest = stored ? (JSON.parse(stored) as Session) : null;
      if (latest && latest.refreshToken !== current.refreshToken && latest.expiresAt - Date.now() > REFRESH_MARGIN_MS) return latest;
      const res = await fetch('/api/auth/refresh', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refreshToken: current.refreshToken }) });
      if (!res.ok) return null;
      return sessionFromAnswer(await res.json(), current);
    };
    try {
      const next = typeof navigator !== 'undefined' && navigator.locks ? await navigator.locks.request('frametext-refresh', run) : await run();
      apply(next);
      return next;
    } catch {
      return current;
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

/**
 * The signed-in session, its access token refreshed first when it expires within a minute (null when signed out).
 * A call that sends the refresh token itself (delete-account) reads it from here, after the refresh: a token read
 * before would be spent by the time it arrives, and identity treats a spent token as stolen.
 */
export async function freshSession(api: Pick<BaseQueryApi, 'getState' | 'dispatch'>): Promise<Session | null> {
  const session = (api.getState() as StateWithAuth).auth.session;
  if (session && session.expiresAt - Date.now() < REFRESH_MARGIN_MS) {
    await refreshSession(session, (next) => {
      saveSession(next);
      api.dispatch(next ? signedIn(next) : signedOut());
    });
  }
  return (api.getState() as StateWithAuth).auth.session;
}

/** Adds the token, refreshes it before it expires, and signs the user out on any 403 (the spec's rule). */
const baseQuery: BaseQueryFn<string | FetchArgs, unknown, FetchBaseQueryError> = async (args, api, extra) => {
  await freshSession(api);
  const result = await rawBaseQuery(args, api, extra);
  if (result.error?.status === 403) {
    saveSession(null);
    api.dispatch(signedOut());
  }
  return result;
};

/** The one API slice for the gateway; each feature adds its endpoints with `injectEndpoints`. */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: ['Profile', 'Uploads', 'Upload', 'Config', 'EmailConfirmation'],
  endpoints: () => ({}),
});

/** Words a person can act on, from any error RTK Query or fetch produced. */
export function errorMessage(error: unknown, fallback = 'Something went wrong. Please try again.'): string {
  if (!error || typeof error !== 'object') return fallback;
  const e = error as { status?: unknown; data?: { error?: { message?: string } }; error?: string; message?: string };
  if (e.data?.error?.message) return e.data.error.message;
  if (e.status === 'FETCH_ERROR') return 'Cannot reach FrameText. Check your connection and try again.';
  if (e.status === 'TIMEOUT_ERROR') return 'The server took too long to answer. Please try again.';
  return e.message ?? e.error ?? fallback;
}

export function errorCode(error: unknown): string | undefined {
  return (error as { data?: { error?: { code?: string } } } | undefined)?.data?.error?.code;
}
