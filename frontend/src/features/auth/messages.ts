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

/** Errors after which the form clears the password and offers a reset: the person may not remember it. */
const OFFER_RESET = new Set(['auth/user-not-found', 'auth/invalid-credential', 'auth/wrong-password', 'auth/missing-password', 'auth/too-many-requests']);

export interface SignInMessage {
  message: string;
  /** Clear the password and offer to reset it (the form keeps its mode so the person can try again). */
  offerReset: boolean;
}

/** What to tell a person after a failed sign-in, from the server's error code and message. */
export function signInMessage(code: string | undefined, serverMessage: string | undefined): SignInMessage {
  if (code && OFFER_RESET.has(code)) return { message: INVALID_CREDENTIALS, offerReset: true };
  const known = code ? BY_CODE[code] : undefined;
  if (known) return { message: known, offerReset: false };
  if (serverMessage) return { message: `An error occurred: ${serverMessage}`, offerReset: false };
  return { message: DEFAULT_AUTH_ERROR, offerReset: false };
}
