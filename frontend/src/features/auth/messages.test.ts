import { describe, expect, it } from 'vitest';
import { DEFAULT_AUTH_ERROR, signInMessage } from './messages';

describe('the sign-in message table', () => {
  it.each([
    ['auth/email-already-in-use', 'Email is already in use. Please log in or use a different email.'],
    ['auth/invalid-email', 'Invalid email format.'],
    ['auth/weak-password', 'Password is too weak. Please use a stronger password.'],
    ['auth/user-disabled', 'Your account has been disabled.'],
  ])('%s says "%s" and keeps the form as it is', (code, message) => {
    expect(signInMessage(code, 'whatever the server said')).toEqual({ message, offerReset: false });
  });

  it.each(['auth/user-not-found', 'auth/invalid-credential', 'auth/wrong-password', 'auth/missing-password', 'auth/too-many-requests'])(
    '%s says "Invalid email or password." and offers a password reset',
    (code) => {
      expect(signInMessage(code, 'Too many attempts, wait 15 minutes.')).toEqual({ message: 'Invalid email or password.', offerReset: true });
    },
  );

  it('passes any other server message on after "An error occurred: "', () => {
    expect(signInMessage('auth/oauth-failed', 'Google sign-in was cancelled or refused. Please try again.')).toEqual({
      message: 'An error occurred: Google sign-in was cancelled or refused. Please try again.',
      offerReset: false,
    });
    expect(signInMessage(undefined, 'Cannot reach FrameText.')).toEqual({ message: 'An error occurred: Cannot reach FrameText.', offerReset: false });
  });

  it('falls back to the default sentence when there is no message at all', () => {
    expect(signInMessage(undefined, undefined)).toEqual({ message: DEFAULT_AUTH_ERROR, offerReset: false });
    expect(signInMessage('auth/something-new', '')).toEqual({ message: 'An error occurred during authentication.', offerReset: false });
  });
});
