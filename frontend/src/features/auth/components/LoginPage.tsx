import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Navigate, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { useAppDispatch } from '../../../lib/store';
import { toastShown } from '../../../lib/ui';
import { errorCode, errorMessage } from '../../../lib/api';
import { useGetProvidersQuery, useLogInMutation, useRequestPasswordResetMutation, useSignUpMutation } from '../api';
import { signedIn } from '../../../lib/auth/authSlice';
import { readGoogleFragment } from '../googleFragment';
import { useSession } from '../../../lib/auth/hooks';
import { MISSING_EMAIL_ON_RESET, RESET_LINK_SENT, signInMessage } from '../messages';
import { sessionFromAnswer, type Session } from '../../../lib/auth/session';
import './auth.css';

type Mode = 'login' | 'signup' | 'forgot';

const TITLES: Record<Mode, string> = { login: 'Log in to FrameText', signup: 'Create your FrameText account', forgot: 'Reset your password' };
const FORM_NAMES: Record<Mode, string> = { login: 'Log in form', signup: 'Sign up form', forgot: 'Reset password form' };
const SUBMITS: Record<Mode, string> = { login: 'Log In', signup: 'Sign Up', forgot: 'Reset Password' };

/** After any sign-in: the onboarding for a first login, the uploads list otherwise. */
const homeFor = (session: Session) => (session.user.firstLogin ? '/onboarding' : '/uploads');

export default function LoginPage() {
  const session = useSession();
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const location = useLocation();
  const [searchParams] = useSearchParams();
  // "Request a new link" on the reset page comes here in forgot-password mode; "Sign up" links add ?mode=signup.
  const [mode, setMode] = useState<Mode>(() => {
    if ((location.state as { forgot?: boolean } | null)?.forgot) return 'forgot';
    return searchParams.get('mode') === 'signup' ? 'signup' : 'login';
  });
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  // Google's answer comes back to /login in the fragment: read once, when the page opens.
  const [fragment] = useState(() => readGoogleFragment(location.hash));
  const [error, setError] = useState<string | null>(() => (fragment?.kind === 'error' ? signInMessage(fragment.code, fragment.message).message : null));
  const [offerReset, setOfferReset] = useState(false);
  const passwordRef = useRef<HTMLInputElement>(null);
  // Set when this page signs someone in, so it leads them on instead of sending them to /uploads.
  const [justSignedIn, setJustSignedIn] = useState(fragment?.kind === 'session');
  const errorId = useId();

  const providers = useGetProvidersQuery();
  const [logIn, logInState] = useLogInMutation();
  const [signUp, signUpState] = useSignUpMutation();
  const [requestReset, resetState] = useRequestPasswordResetMutation();
  const busy = logInState.isLoading || signUpState.isLoading || resetState.isLoading;

  const finishSignIn = (next: Session) => {
    setJustSignedIn(true);
    dispatch(signedIn(next));
    navigate(homeFor(next), { replace: true });
  };

  // Google's answer comes back to /login in the fragment; read it once and take it out of the address bar.
  // ...and taken out of the address bar.
  useEffect(() => {
    if (!fragment) return;
    window.history.replaceState(null, '', window.location.pathname + window.location.search);
    if (fragment.kind === 'session') {
      dispatch(signedIn(fragment.session));
      navigate(homeFor(fragment.session), { replace: true });
    }
  }, [fragment, dispatch, navigate]);

  if (session && !justSignedIn) return <Navigate to="/uploads" replace />;

  const switchTo = (next: Mode) => {
    setMode(next);
    setError(null);
    setOfferReset(false);
  };

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setOfferReset(false);
    if (mode === 'forgot') {
      if (!email.trim()) {
        setError(MISSING_EMAIL_ON_RESET);
        return;
      }
      try {
        await requestReset({ email: email.trim() }).unwrap();
        dispatch(toastShown(RESET_LINK_SENT, 'success'));
      } catch (err) {
        setError(errorCode(err) === 'auth/missing-email' ? MISSING_EMAIL_ON_RESET : `An error occurred: ${errorMessage(err)}`);
      }
      return;
    }
    try {
      const answer = await (mode === 'signup' ? signUp : logIn)({ email: email.trim(), password }).unwrap();
      finishSignIn(sessionFromAnswer(answer));
    } catch (err) {
      const result = signInMessage(errorCode(err), errorMessage(err, '') || undefined);
      setError(result.message);
      // The form stays as it is so the person can try again; a rejected password is cleared and a reset offered.
      if (result.offerReset) {
        setPassword('');
        setOfferReset(mode === 'login');
        passwordRef.current?.focus();
      }
    }
  };

  return (
    <div className="container container--narrow page auth">
      <div className="card auth__card">
        <h1 className="auth__title">{TITLES[mode]}</h1>
        {mode !== 'forgot' ? (
          <div className="auth__switch" role="group" aria-label="Choose log in or sign up">
            <button type="button" className={mode === 'login' ? 'auth__tab auth__tab--on' : 'auth__tab'} aria-pressed={mode === 'login'} onClick={() => switchTo('login')}>
              Log In
            </button>
            <button type="button" className={mode === 'signup' ? 'auth__tab auth__tab--on' : 'auth__tab'} aria-pressed={mode === 'signup'} onClick={() => switchTo('signup')}>
              Sign Up
            </button>
          </div>
        ) : (
          <p className="muted">Enter the email of your account and we will send you a link to choose a new password.</p>
        )}

        <form className="stack" aria-label={FORM_NAMES[mode]} onSubmit={(e) => void onSubmit(e)} noValidate>
          <div className="field">
            <label htmlFor="auth-email">Email</label>
            <input
              id="auth-email"
              className="input"
              type="email"
              name="email"
              autoComplete="email"
              inputMode="email"
              value={email}
              onChange={(e) => setEmail(e.target.value)}
              aria-describedby={error ? errorId : undefined}
            />
          </div>
          {mode !== 'forgot' && (
            <div className="field">
              <label htmlFor="auth-password">Password</label>
              <input
                ref={passwordRef}
                id="auth-password"
                className="input"
                type="password"
                name="password"
                autoComplete={mode === 'signup' ? 'new-password' : 'current-password'}
                value={password}
                onChange={(e) => setPassword(e.target.value)}
                aria-describedby={mode === 'signup' ? 'auth-password-hint' : undefined}
              />
              {mode === 'signup' && (
                <span id="auth-password-hint" className="field__hint">
                  At least 8 characters, mixing letters with digits or symbols.
                </span>
              )}
            </div>
          )}
          {error && (
            <p id={errorId} className="alert alert--danger" role="alert">
              {error}
              {offerReset && (
                <>
                  {' '}
                  <button type="button" className="btn btn--link" onClick={() => switchTo('forgot')}>
                    Reset your password
                  </button>
                </>
              )}
            </p>
          )}
          <button type="submit" className="btn btn--primary btn--block" disabled={busy}>
            {SUBMITS[mode]}
          </button>
        </form>

        <div className="auth__extra">
          {mode === 'forgot' ? (
            <button type="button" className="btn btn--link" onClick={() => switchTo('login')}>
              Back to log in
            </button>
          ) : (
            <button type="button" className="btn btn--link" onClick={() => switchTo('forgot')}>
              Forgot password?
            </button>
          )}
        </div>

        {providers.data?.google && mode !== 'forgot' && (
          <>
            <div className="auth__or">
              <span>or</span>
            </div>
            <a className="btn btn--secondary btn--block" href="/api/auth/google/start">
              <span aria-hidden="true" className="auth__g">
                G
              </span>
              Continue with Google
            </a>
          </>
        )}
      </div>
    </div>
  );
}
