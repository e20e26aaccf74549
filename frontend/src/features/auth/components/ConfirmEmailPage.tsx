import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { errorMessage } from '../../../lib/api';
import { useConfirmEmailMutation } from '../../../lib/auth/api';
import { useSession } from '../../../lib/auth/hooks';
import { useGetPublicConfigQuery } from '../../../lib/credits/api';
import { watchProfileAfterCheckout } from '../../../lib/credits/profileWatch';
import { useAppDispatch } from '../../../lib/store';
import './auth.css';

/** What the page says once the address is confirmed. */
export function confirmedMessage(email: string, freeCredits: number | undefined): string {
  const credits = freeCredits ? ` Your ${freeCredits} free credits are on their way: they show on your balance within a few seconds.` : '';
  return `Thank you: ${email} is confirmed.${credits}`;
}

/**
 * The page the confirmation mail links to (/confirm-email?token=…): it sends the token once, signed in or not (the
 * link is the proof), and says what happened. The balance is followed for a while, since the credits land a moment
 * after the confirmation.
 */
export default function ConfirmEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const session = useSession();
  const dispatch = useAppDispatch();
  const freeCredits = useGetPublicConfigQuery().data?.freeCredits;
  const [confirm, result] = useConfirmEmailMutation();

  // Once per page, however often React runs the effect (a used link is refused the second time).
  const sent = useRef(false);
  useEffect(() => {
    if (!token || sent.current) return;
    sent.current = true;
    void confirm({ token })
      .unwrap()
      .then(() => session && watchProfileAfterCheckout(dispatch))
      .catch(() => undefined);
  }, [token, confirm, session, dispatch]);

  const next = session ? { to: '/uploads', label: 'Go to your uploads' } : { to: '/login', label: 'Log in' };
  return (
    <div className="container container--narrow page auth">
      <div className="card auth__card stack">
        <h1 className="auth__title">Confirm your e-mail</h1>
        {!token ? (
          <p className="alert alert--danger" role="alert">
            This confirmation link is incomplete. Please open the link from the e-mail again.
          </p>
        ) : result.isSuccess ? (
          <p className="alert alert--success" role="status">
            {confirmedMessage(result.data.email, freeCredits)}
          </p>
        ) : result.isError ? (
          <div className="stack">
            <p className="alert alert--danger" role="alert">
              {errorMessage(result.error)}
            </p>
            <p className="muted">Links work once and expire after a few days. Signed in, the banner at the top of every page sends a new one.</p>
          </div>
        ) : (
          <p role="status">Confirming your e-mail address…</p>
        )}
        <Link to={next.to} className="btn btn--primary btn--block">
          {next.label}
        </Link>
      </div>
    </div>
  );
}
