import { useId, useState, type FormEvent } from 'react';
import { errorMessage } from '../../../lib/api';
import { useChangePasswordMutation, useGetReauthenticationQuery } from '../api';

export const PASSWORD_CHANGED =
  'Your password has been changed. Every other session was signed out and every API token was revoked: create new tokens for your scripts.';
export const CHANGE_ENDS_ACCESS = 'Changing your password signs you out on every other device and revokes every API token; scripts need a new token afterwards.';
export const NO_PASSWORD =
  'Your account signs in with Google and has no password. To set one, log out and choose “Forgot password?” on the log-in page; that too signs you out everywhere and revokes your API tokens.';

/**
 * Changes the password with the current one. The server ends every session and API token of the account and answers
 * a new session, which replaces this one (ownerStepsApi's changePassword), so the person stays signed in here only.
 * An account that signs in with Google only has no password to change: it is told how to set one.
 */
export function ChangePasswordSection() {
  const reauthentication = useGetReauthenticationQuery(undefined, { refetchOnMountOrArgChange: true });
  const [change, { isLoading: changing }] = useChangePasswordMutation();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const currentId = useId();
  const nextId = useId();
  const confirmId = useId();
  const hintId = useId();
  const googleOnly = reauthentication.data !== undefined && reauthentication.data.proof !== 'password';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    setDone(false);
    if (current === '') return setError('Please fill in your current password.');
    if (next === '') return setError('Please choose a new password.');
    if (next !== confirm) return setError('The two new passwords are not the same. Please type the new password twice.');
    try {
      await change({ currentPassword: current, newPassword: next }).unwrap();
      setCurrent('');
      setNext('');
      setConfirm('');
      setDone(true);
    } catch (err) {
      setError(errorMessage(err, 'Your password could not be changed. Please try again.'));
    }
  };

  return (
    <section className="card stack account__password" aria-labelledby="account-password">
      <h2 id="account-password" className="card__title">
        Password
      </h2>
      {googleOnly ? (
        <p className="muted">{NO_PASSWORD}</p>
      ) : (
        <>
          <p className="muted small">{CHANGE_ENDS_ACCESS}</p>
          {done && (
            <p className="alert alert--success" role="status">
              {PASSWORD_CHANGED}
            </p>
          )}
          <form className="stack stack--sm" aria-label="Change password" onSubmit={(e) => void submit(e)} noValidate>
            <div className="field">
              <label htmlFor={currentId}>Current password</label>
              <input id={currentId} className="input" type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor={nextId}>New password</label>
              <input
                id={nextId}
                className="input"
                type="password"
                autoComplete="new-password"
                value={next}
                onChange={(e) => setNext(e.target.value)}
                aria-describedby={hintId}
              />
              <span id={hintId} className="field__hint">
                At least 8 characters, mixing letters with digits or symbols.
              </span>
            </div>
            <div className="field">
              <label htmlFor={confirmId}>Confirm new password</label>
              <input id={confirmId} className="input" type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} />
            </div>
            {error && (
              <p className="field__error" role="alert">
                {error}
              </p>
            )}
            <div className="cluster">
              <button type="submit" className="btn btn--primary" disabled={changing}>
                {changing ? 'Changing…' : 'Change password'}
              </button>
            </div>
          </form>
        </>
      )}
    </section>
  );
}
