import { KEYS, readJson, writeJson } from '../storage';

/** A signed-in session as the browser keeps it. `expiresAt` is ms since the epoch. */
export interface Session {
  idToken: string;
  refreshToken: string;
  expiresAt: number;
  user: { uid: string; email: string; firstLogin: boolean };
}

export function loadSession(): Session | null {
  const s = readJson<Session>(KEYS.session);
  return s && typeof s.idToken === 'string' && typeof s.refreshToken === 'string' ? s : null;
}

export function saveSession(session: Session | null): void {
  writeJson(KEYS.session, session);
}

export function sessionFromAnswer(answer: { idToken: string; refreshToken: string; expiresIn: number | string; user?: Session['user'] }, previous?: Session | null): Session {
  const user = answer.user ?? previous?.user;
  if (!user) throw new Error('sign-in answer without a user');
  return { idToken: answer.idToken, refreshToken: answer.refreshToken, expiresAt: Date.now() + Number(answer.expiresIn) * 1000, user };
}

/** The uid and email inside an access token, without verifying it (the gateway does that). */
export function claimsOf(idToken: string): { sub?: string; email?: string; exp?: number } {
  try {
    const payload = idToken.split('.')[1] ?? '';
    return JSON.parse(atob(payload.replace(/-/g, '+').replace(/_/g, '/'))) as { sub?: string; email?: string; exp?: number };
  } catch {
    return {};
  }
}
