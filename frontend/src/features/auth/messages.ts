/**
 * The spec's sign-in messages (product spec section 8), chosen from identity's error codes so the words stay
 * the spec's even if the server's change.
 */

export const MISSING_EMAIL_ON_RESET = 'Please fill in your email and click "Forgot password" again.';
export const RESET_LINK_SENT = 'Password reset link sent to your email.';
export const INVALID_CREDENTIALS = 'Invalid email or password.';
export const DEFAULT_AUTH_ERROR = 'An error occurred during authentication.';

const BY_CODE: Record<string, string> = {
  'auth/email-already-in-use': 'Email is already in use. Please log in or use a different email.',
  'auth/invalid-email': 'Invalid email format.',
  'auth/weak-password': 'Password is too weak. Please use a stronger password.',
  'auth/user-disabled': 'Your account has been disabled.',
};

/** Errors after which the form switches to forgot-password mode: the person may not remember the password. */
const TO_FORGOT_MODE = new Set(['auth/user-not-found', 'auth/invalid-credential', 'auth/wrong-password', 'auth/missing-password', 'auth/too-many-requests']);

export interface SignInMessage {
  message: string;
  /** Switch the form to forgot-password mode. */
  forgotMode: boolean;
}

/** What to tell a person after a failed sign-in, from the server's error code and message. */
export function signInMessage(code: string | undefined, serverMessage: string | undefined): SignInMessage {
  if (code && TO_FORGOT_MODE.has(code)) return { message: INVALID_CREDENTIALS, forgotMode: true };
  const known = code ? BY_CODE[code] : undefined;
  if (known) return { message: known, forgotMode: false };
  if (serverMessage) return { message: `An error occurred: ${serverMessage}`, forgotMode: false };
  return { message: DEFAULT_AUTH_ERROR, forgotMode: false };
}
