import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { useAppDispatch } from '../../../lib/store';
import { toastShown } from '../../../lib/ui';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { errorCode, errorMessage } from '../../../lib/api';
import { useDeleteAccountMutation, useGetDeletionProofQuery } from '../api';
import { signedOut } from '../../../lib/auth/authSlice';
import { useSignOut } from '../../../lib/auth/useSignOut';

export const ACCOUNT_DELETED = 'Your account has been deleted, with your uploads and their files.';
export const WRONG_PASSWORD = 'That is not your password. Please try again.';
export const MISSING_PASSWORD = 'Please fill in your password.';
const SESSION_ENDED = 'Your session has ended. Please sign in again.';

export interface DeleteAccountDialogProps {
  email: string;
  /** The balance the person would forfeit, when known. */
  credits: number | undefined;
  onClose: () => void;
}

/**
 * Asks before deleting the account: says what goes (the account, every upload with its files and results, the
 * credits left), then asks for the password, or, for an account that signs in with Google only, relies on a recent
 * sign-in and otherwise offers to sign in again. After the deletion the person is signed out here and lands on the
 * home page with a toast; every other device is signed out by the server within seconds.
 */
export function DeleteAccountDialog({ email, credits, onClose }: DeleteAccountDialogProps) {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { signOut } = useSignOut();
  const proof = useGetDeletionProofQuery(undefined, { refetchOnMountOrArgChange: true });
  const [deleteAccount, { isLoading: deleting }] = useDeleteAccountMutation();
  const [password, setPassword] = useState('');
  const [passwordError, setPasswordError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [mustSignInAgain, setMustSignInAgain] = useState<string | null>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const passwordId = useId();
  const errorId = useId();

  const proofCode = errorCode(proof.error);
  const sessionEnded = proofCode === 'auth/invalid-refresh-token' ? SESSION_ENDED : null;
  const needs = proof.data?.proof;
  const minutes = proof.data?.recentSignInMinutes ?? 5;
  const signInAgain =
    mustSignInAgain ??
    sessionEnded ??
    (needs === 'sign-in-again'
      ? `For your safety, deleting an account that signs in with Google needs a sign-in from the last ${minutes} minutes. Sign in again, then come back to Account to delete it.`
      : null);

  // The password field appears once the server has said it is needed: it takes the focus then.
  useEffect(() => {
    if (needs === 'password') passwordRef.current?.focus();
  }, [needs]);

  const onDeleted = () => {
    dispatch(toastShown(ACCOUNT_DELETED, 'success'));
    dispatch(signedOut());
    navigate('/', { replace: true });
  };

  const confirm = async () => {
    if (signInAgain) {
      await signOut('/login');
      return;
    }
    if (!needs) return;
    setFailure(null);
    if (needs === 'password' && password === '') {
      setPasswordError(MISSING_PASSWORD);
      passwordRef.current?.focus();
      return;
    }
    try {
      await deleteAccount(needs === 'password' ? { password } : {}).unwrap();
      onDeleted();
    } catch (err) {
      const code = errorCode(err);
      if (code === 'auth/invalid-credential') {
        setPasswordError(WRONG_PASSWORD);
        passwordRef.current?.select();
      } else if (code === 'auth/missing-password') {
        setPasswordError(MISSING_PASSWORD);
      } else if (code === 'auth/requires-recent-login') {
        setMustSignInAgain(errorMessage(err));
      } else if (code === 'auth/invalid-refresh-token') {
        setMustSignInAgain(SESSION_ENDED);
      } else {
        setFailure(errorMessage(err, 'Your account could not be deleted. Please try again.'));
      }
    }
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void confirm();
  };

  return (
    <ConfirmDialog
      title="Delete your account?"
      confirmLabel={signInAgain ? 'Sign in again' : deleting ? 'Deleting…' : 'Delete account'}
      danger={!signInAgain}
      busy={deleting || (!signInAgain && !needs)}
      onConfirm={() => void confirm()}
      onCancel={onClose}
    >
      <div className="stack delete-account">
        <p>
          <strong>This cannot be undone.</strong> Deleting your account removes, for good:
        </p>
        <ul className="delete-account__list">
          <li>
            your account and its sign-in (<span className="delete-account__email">{email}</span>);
          </li>
          <li>all your uploads, their files and their results;</li>
          <li>
            {credits === undefined ? 'your remaining credits' : `your remaining ${credits.toLocaleString('en-US')} ${credits === 1 ? 'credit' : 'credits'}`}: they are
            forfeited and cannot be refunded.
          </li>
        </ul>

        {signInAgain ? (
          <p className="alert alert--info" role="alert">
            {signInAgain}
          </p>
        ) : proof.isLoading || proof.isFetching ? (
          <p className="muted" role="status">
            Checking your session…
          </p>
        ) : proof.isError ? (
          <p className="alert alert--danger" role="alert">
            {errorMessage(proof.error, 'We could not check your session. Please close this and try again.')}
          </p>
        ) : needs === 'password' ? (
          <form onSubmit={onSubmit} noValidate>
            <div className="field">
              <label htmlFor={passwordId}>Password</label>
              <input
                ref={passwordRef}
                id={passwordId}
                className="input"
                type="password"
                autoComplete="current-password"
                value={password}
                onChange={(e) => {
                  setPassword(e.target.value);
                  setPasswordError(null);
                }}
                aria-invalid={passwordError ? true : undefined}
                aria-describedby={passwordError ? errorId : undefined}
                disabled={deleting}
              />
              {passwordError ? (
                <p id={errorId} className="field__error" role="alert">
                  {passwordError}
                </p>
              ) : (
                <p className="field__hint">Type your password to confirm it is you.</p>
              )}
            </div>
          </form>
        ) : (
          <p className="muted">You signed in with Google a moment ago, which is proof enough that it is you.</p>
        )}

        {failure && (
          <p className="alert alert--danger" role="alert">
            {failure}
          </p>
        )}
      </div>
    </ConfirmDialog>
  );
}
