import { useId, useState, type FormEvent } from 'react';
import { API_TOKEN_NAME_MAX, type ApiTokenScope } from '@frametext/contracts/api-token-rules';
import type { ApiToken } from '@frametext/contracts';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { Skeleton } from '../../../components/Skeleton';
import { errorCode, errorMessage } from '../../../lib/api';
import { useSignOut } from '../../../lib/auth/useSignOut';
import { useAppDispatch } from '../../../lib/store';
import { toastShown } from '../../../lib/ui';
import { useGetReauthenticationQuery } from '../api';
import { useCreateApiTokenMutation, useListApiTokensQuery, useRevokeApiTokenMutation } from '../apiTokensApi';
import './api-tokens.css';

export const SCOPE_LABELS: Record<ApiTokenScope, string> = { read: 'Read only', upload: 'Read and upload' };
const SCOPE_HINTS: Record<ApiTokenScope, string> = {
  read: 'List uploads and read their status and results.',
  upload: 'Also upload media, complete uploads and delete them (spends credits).',
};
export const SHOWN_ONCE = 'Copy this token now. You will not see it again.';
export const PASSWORD_NEEDED = 'Enter your password to create a token.';
export const ENDS_WITH_PASSWORD = 'A password reset, a password change or linking a Google account revokes every token.';
const signInAgainMessage = (minutes: number) =>
  `For your safety, creating a token on an account that signs in with Google needs a sign-in from the last ${minutes} minutes. Sign in again, then come back here to create it.`;

const when = (iso: string) => new Date(iso).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/**
 * Personal API tokens for scripts: create one with a name, a scope and the account's password (an account that signs
 * in with Google only needs a recent sign-in instead, and is offered to sign in again), see its text once (with a
 * copy button), list the tokens with their last use, and revoke one after a confirmation.
 */
export function ApiTokensSection() {
  const dispatch = useAppDispatch();
  const { signOut } = useSignOut();
  const list = useListApiTokensQuery();
  const reauthentication = useGetReauthenticationQuery(undefined, { refetchOnMountOrArgChange: true });
  const [create, { isLoading: creating }] = useCreateApiTokenMutation();
  const [revoke, { isLoading: revoking }] = useRevokeApiTokenMutation();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<ApiTokenScope>('read');
  const [password, setPassword] = useState('');
  const [formError, setFormError] = useState<string | null>(null);
  const [tooOld, setTooOld] = useState<string | null>(null);
  const [created, setCreated] = useState<{ token: string; name: string } | null>(null);
  const [toRevoke, setToRevoke] = useState<ApiToken | null>(null);
  const nameId = useId();
  const passwordId = useId();
  const errorId = useId();

  // Unknown (the check failed): ask for the password, which is what most accounts need.
  const needs = reauthentication.data?.proof ?? (reauthentication.isError ? 'password' : undefined);
  const signInAgain = tooOld ?? (needs === 'sign-in-again' ? signInAgainMessage(reauthentication.data?.recentSignInMinutes ?? 5) : null);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setFormError(null);
    if (name.trim() === '') {
      setFormError('Give the token a name, such as the script or machine that will use it.');
      return;
    }
    if (needs === 'password' && password === '') {
      setFormError(PASSWORD_NEEDED);
      return;
    }
    try {
      const answer = await create({ name: name.trim(), scope, ...(needs === 'password' ? { password } : {}) }).unwrap();
      setCreated({ token: answer.token, name: answer.apiToken.name });
      setName('');
      setPassword('');
    } catch (err) {
      if (errorCode(err) === 'auth/requires-recent-login') setTooOld(errorMessage(err));
      else setFormError(errorMessage(err, 'The token could not be created. Please try again.'));
    }
  };

  const copy = async () => {
    if (!created) return;
    try {
      await navigator.clipboard.writeText(created.token);
      dispatch(toastShown('Token copied to clipboard.', 'success'));
    } catch {
      dispatch(toastShown('Copying did not work here; select the token and copy it yourself.', 'error'));
    }
  };

  const confirmRevoke = async () => {
    if (!toRevoke) return;
    try {
      await revoke(toRevoke.id).unwrap();
      dispatch(toastShown(`Token "${toRevoke.name}" revoked. Scripts using it stop working within seconds.`, 'success'));
      setToRevoke(null);
    } catch (err) {
      dispatch(toastShown(errorMessage(err, 'The token could not be revoked. Please try again.'), 'error'));
      setToRevoke(null);
    }
  };

  const tokens = list.data?.tokens ?? [];
  const full = list.data ? tokens.length >= list.data.limit : false;

  return (
    <section className="card stack api-tokens" aria-labelledby="account-api-tokens">
      <h2 id="account-api-tokens" className="card__title">
        API tokens
      </h2>
      <p>
        Scripts use a token instead of your password: send it as <code>Authorization: Bearer &lt;token&gt;</code> to the same API this site uses. A token
        sees only your uploads, and cannot buy credits or change your account. {ENDS_WITH_PASSWORD}
      </p>

      {created && (
        <div className="alert alert--success stack stack--sm" role="status" aria-label="New API token">
          <p>
            <strong>Token “{created.name}” created.</strong> {SHOWN_ONCE}
          </p>
          <code className="api-tokens__secret" aria-label="Token text">
            {created.token}
          </code>
          <div className="cluster">
            <button type="button" className="btn btn--primary btn--sm" onClick={() => void copy()}>
              Copy token
            </button>
            <button type="button" className="btn btn--secondary btn--sm" onClick={() => setCreated(null)}>
              Done, I have copied it
            </button>
          </div>
        </div>
      )}

      <form className="stack stack--sm" onSubmit={(e) => void submit(e)} aria-label="Create an API token" noValidate>
        <div className="field">
          <label htmlFor={nameId}>Token name</label>
          <input
            id={nameId}
            className="input"
            value={name}
            maxLength={API_TOKEN_NAME_MAX}
            placeholder="e.g. nightly export on my laptop"
            onChange={(e) => setName(e.target.value)}
            aria-invalid={formError ? 'true' : undefined}
            aria-describedby={formError ? errorId : undefined}
          />
        </div>
        <fieldset className="api-tokens__scopes">
          <legend className="field__label">What it may do</legend>
          {(Object.keys(SCOPE_LABELS) as ApiTokenScope[]).map((s) => (
            <label key={s} className="checkbox api-tokens__scope">
              <input type="radio" name="api-token-scope" value={s} checked={scope === s} onChange={() => setScope(s)} />
              <strong>{SCOPE_LABELS[s]}</strong> <span className="muted small api-tokens__hint">{SCOPE_HINTS[s]}</span>
            </label>
          ))}
        </fieldset>
        {needs === 'password' && (
          <div className="field">
            <label htmlFor={passwordId}>Your password</label>
            <input
              id={passwordId}
              className="input"
              type="password"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              aria-invalid={formError === PASSWORD_NEEDED ? 'true' : undefined}
              aria-describedby={formError ? errorId : undefined}
            />
            <span className="field__hint">A token works until you revoke it, so creating one takes your password, not just this session.</span>
          </div>
        )}
        {needs === 'recent-sign-in' && !signInAgain && <p className="muted small">You signed in with Google a moment ago, which is proof enough that it is you.</p>}
        {signInAgain && (
          <div className="alert alert--info stack stack--sm" role="alert">
            <p>{signInAgain}</p>
            <div className="cluster">
              <button type="button" className="btn btn--secondary btn--sm" onClick={() => void signOut('/login')}>
                Sign in again
              </button>
            </div>
          </div>
        )}
        {formError && (
          <p id={errorId} className="field__error" role="alert">
            {formError}
          </p>
        )}
        <div className="cluster">
          <button type="submit" className="btn btn--primary" disabled={creating || full || reauthentication.isLoading || Boolean(signInAgain)}>
            {creating ? 'Creating…' : 'Create token'}
          </button>
          {full && <span className="muted small">You have {list.data?.limit} tokens, the most an account may hold. Revoke one to create another.</span>}
        </div>
      </form>

      {list.isLoading ? (
        <Skeleton height="3rem" />
      ) : list.error ? (
        <p className="alert alert--danger" role="alert">
          {errorMessage(list.error, 'Your API tokens could not be loaded. Please reload the page.')}
        </p>
      ) : tokens.length === 0 ? (
        <p className="muted">You have no API tokens.</p>
      ) : (
        <ul className="api-tokens__list" aria-label="Your API tokens">
          {tokens.map((t) => (
            <li key={t.id} className="api-tokens__item">
              <div className="api-tokens__about">
                <strong className="api-tokens__name">{t.name}</strong>{' '}
                <span className={t.scope === 'upload' ? 'badge badge--warning' : 'badge badge--info'}>{SCOPE_LABELS[t.scope]}</span>
                <p className="muted small">
                  Created {when(t.createdAt)} · {t.lastUsedAt ? `Last used ${when(t.lastUsedAt)}` : 'Never used'}
                </p>
              </div>
              <button type="button" className="btn btn--secondary btn--sm" onClick={() => setToRevoke(t)} aria-label={`Revoke ${t.name}`}>
                Revoke
              </button>
            </li>
          ))}
        </ul>
      )}

      {toRevoke && (
        <ConfirmDialog title="Revoke this API token?" confirmLabel="Revoke token" danger busy={revoking} onConfirm={() => void confirmRevoke()} onCancel={() => setToRevoke(null)}>
          <p>
            Scripts using <strong className="api-tokens__name">{toRevoke.name}</strong> stop working within seconds. This cannot be undone; you can create a
            new token at any time.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
