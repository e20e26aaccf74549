import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { errorCode, errorMessage } from '../../../lib/api';
import { useConfirmPasswordResetMutation } from '../api';
import './auth.css';

export const PASSWORD_RESET_DONE =
  'Your password has been changed. For your safety, every session was signed out and every API token revoked: log in with the new password, and create new tokens for your scripts.';

/** Completes a reset from the e-mailed link (/reset-password?token=…). */
export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [linkDead, setLinkDead] = useState(!token);
  const [done, setDone] = useState(false);
  const [confirmReset, { isLoading }] = useConfirmPasswordResetMutation();

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (!password) return setError('Please choose a new password.');
    if (password !== confirm) return setError('The two passwords are not the same. Please type the new password twice.');
    try {
      await confirmReset({ token, password }).unwrap();
      setDone(true);
    } catch (err) {
      const code = errorCode(err);
      if (code === 'auth/invalid-reset-token' || code === 'auth/missing-reset-token') setLinkDead(true);
      setError(errorMessage(err));
    }
  };

  return (
    <div className="container container--narrow page auth">
      <div className="card auth__card">
        <h1 className="auth__title">Choose a new password</h1>
        {done ? (
          <div className="stack" role="status">
            <p className="alert alert--success">{PASSWORD_RESET_DONE}</p>
            <Link to="/login" className="btn btn--primary btn--block">
              Log in
            </Link>
          </div>
        ) : linkDead ? (
          <div className="stack">
            <p className="alert alert--danger" role="alert">
              {error ?? 'This reset link is incomplete. Please open the link from the e-mail again, or ask for a new one.'}
            </p>
            <p className="muted">Reset links work once and expire after an hour. On the log-in page, choose “Forgot password?” to get a new one.</p>
            <Link to="/login" state={{ forgot: true }} className="btn btn--primary btn--block">
              Request a new link
            </Link>
          </div>
        ) : (
          <form className="stack" aria-label="New password form" onSubmit={(e) => void onSubmit(e)} noValidate>
            <p className="muted small">Setting a new password signs you out everywhere and revokes every API token of your account.</p>
            <div className="field">
              <label htmlFor="reset-password">New password</label>
              <input id="reset-password" className="input" type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} aria-describedby="reset-password-hint" />
              <span id="reset-password-hint" className="field__hint">
                At least 8 characters, mixing letters with digits or symbols.
              </span>
            </div>
            <div className="field">
              <label htmlFor="reset-confirm">Confirm new password</label>
              <input id="reset-confirm" className="input" type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} />
            </div>
            {error && (
              <p className="alert alert--danger" role="alert">
                {error}
              </p>
            )}
            <button type="submit" className="btn btn--primary btn--block" disabled={isLoading}>
              Set new password
            </button>
          </form>
        )}
      </div>
    </div>
  );
}
