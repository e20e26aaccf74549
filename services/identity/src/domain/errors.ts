import { AppError } from '@frametext/service-kit';
import type { AuthErrorCode } from '@frametext/contracts';

/** The weak-password rule, stated once: the message tells the person what to do. */
export const PASSWORD_RULE = 'at least 8 characters, not only letters and not only digits';

const messages: Record<AuthErrorCode, [status: number, message: string]> = {
  'auth/email-already-in-use': [409, 'Email is already in use. Please log in or use a different email.'],
  'auth/invalid-email': [400, 'Invalid email format.'],
  'auth/weak-password': [400, `Password is too weak. Please use a stronger password: ${PASSWORD_RULE}.`],
  'auth/user-disabled': [403, 'Your account has been disabled.'],
  'auth/invalid-credential': [401, 'Invalid email or password.'],
  'auth/missing-email': [400, 'Please fill in your email.'],
  'auth/missing-password': [400, 'Please fill in your password.'],
  'auth/too-many-requests': [429, 'Too many attempts. Please wait a few minutes and try again.'],
  'auth/missing-refresh-token': [400, 'The refresh token is missing.'],
  'auth/invalid-refresh-token': [401, 'Your session has expired or was signed out. Please log in again.'],
  'auth/missing-reset-token': [400, 'The password reset token is missing. Open the link from the e-mail again.'],
  'auth/invalid-reset-token': [400, 'This password reset link is invalid, already used or expired. Please request a new one.'],
  'auth/provider-disabled': [404, 'This sign-in method is not enabled.'],
  'auth/invalid-oauth-state': [400, 'The sign-in attempt expired or was already used. Please try again.'],
  'auth/oauth-failed': [502, 'Google sign-in failed. Please try again.'],
  'auth/email-not-verified': [403, 'Your Google account e-mail is not verified.'],
  'auth/account-exists-with-different-credential': [409, 'This e-mail is already linked to a different Google account.'],
  // 401 like the other "sign in again" answers, not 403, which the SPA takes as "signed out" before it can explain.
  'auth/requires-recent-login': [401, 'For your safety, this needs a recent sign-in. Please sign in again and retry.'],
  'auth/missing-confirmation-token': [400, 'The confirmation token is missing. Open the link from the e-mail again.'],
  'auth/invalid-confirmation-token': [400, 'This confirmation link is invalid, already used or expired. Sign in and send yourself a new one.'],
  'auth/email-already-confirmed': [409, 'Your e-mail address is already confirmed.'],
  'auth/no-password': [409, 'Your account signs in with Google and has no password to change. To set one, log out and choose "Forgot password?" on the log-in page.'],
};

export function authError(code: AuthErrorCode, message?: string, details?: unknown): AppError {
  const [status, defaultMessage] = messages[code];
  return new AppError(status, code, message ?? defaultMessage, { details });
}
