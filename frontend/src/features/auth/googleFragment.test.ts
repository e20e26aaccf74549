import { describe, expect, it } from 'vitest';
import { readGoogleFragment } from './googleFragment';

const token = (claims: object) => `h.${btoa(JSON.stringify(claims)).replace(/=+$/, '')}.s`;

describe('the Google sign-in fragment', () => {
  it('turns tokens into a session with the uid and email of the token', () => {
    const idToken = token({ sub: 'u-1', email: 'ada@example.com' });
    const result = readGoogleFragment(`#idToken=${idToken}&refreshToken=r1&expiresIn=3600&firstLogin=true`, 1_000);
    expect(result).toEqual({ kind: 'session', session: { idToken, refreshToken: 'r1', expiresAt: 3_601_000, user: { uid: 'u-1', email: 'ada@example.com', firstLogin: true } } });
  });

  it('reads an error and its message', () => {
    expect(readGoogleFragment('#error=auth%2Femail-not-verified&message=Verify%20your%20Google%20address.')).toEqual({ kind: 'error', code: 'auth/email-not-verified', message: 'Verify your Google address.' });
  });

  it('ignores an empty or partial fragment', () => {
    expect(readGoogleFragment('')).toBeNull();
    expect(readGoogleFragment('#idToken=abc&refreshToken=r')).toBeNull();
    expect(readGoogleFragment(`#idToken=not-a-jwt&refreshToken=r&expiresIn=60&firstLogin=false`)).toBeNull();
  });
});
