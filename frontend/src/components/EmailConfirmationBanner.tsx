import { useEffect, useRef } from 'react';
import { errorMessage } from '../lib/api';
import { useGetEmailConfirmationQuery, useResendEmailConfirmationMutation } from '../lib/auth/api';
import { useSession } from '../lib/auth/hooks';
import { useGetPublicConfigQuery } from '../lib/credits/api';
import { watchProfileAfterCheckout } from '../lib/credits/profileWatch';
import { useAppDispatch } from '../lib/store';

/** The banner's words: the free credits wait for the confirmed address (none promised when the server grants none). */
export function confirmBannerTitle(freeCredits: number | undefined): string {
  return freeCredits ? `Confirm your e-mail to get your ${freeCredits} free credits.` : 'Confirm your e-mail address.';
}

/**
 * Shown on every page of a signed-in person whose e-mail is not confirmed yet, with a button that mails the link
 * again. The status is read again when the tab regains focus (the link is usually opened in another tab); once it
 * says confirmed, the balance is followed for a while, since the credits land a moment after.
 */
export function EmailConfirmationBanner() {
  const session = useSession();
  const dispatch = useAppDispatch();
  const status = useGetEmailConfirmationQuery(undefined, { skip: !session, refetchOnFocus: true });
  const confirmed = status.data?.confirmed;
  const freeCredits = useGetPublicConfigQuery(undefined, { skip: confirmed !== false }).data?.freeCredits;
  const [resend, resent] = useResendEmailConfirmationMutation();

  const wasUnconfirmed = useRef(false);
  useEffect(() => {
    if (confirmed === false) wasUnconfirmed.current = true;
    if (confirmed && wasUnconfirmed.current) {
      wasUnconfirmed.current = false;
      watchProfileAfterCheckout(dispatch);
    }
  }, [confirmed, dispatch]);

  if (!session || confirmed !== false) return null;
  const email = status.data?.email ?? session.user.email;
  return (
    <section className="container app__notice" aria-label="Confirm your e-mail">
      <div className="alert alert--info stack">
        <p>
          <strong>{confirmBannerTitle(freeCredits)}</strong> We sent a link to {email}: open it to confirm.
        </p>
        {resent.isSuccess ? (
          <p role="status">A new link is on its way to {email}. Check your spam folder too.</p>
        ) : (
          <p>
            <button type="button" className="btn btn--secondary btn--sm" onClick={() => void resend()} disabled={resent.isLoading}>
              Send the link again
            </button>
          </p>
        )}
        {resent.isError && (
          <p className="alert alert--danger" role="alert">
            {errorMessage(resent.error, 'The link could not be sent just now. Please try again in a moment.')}
          </p>
        )}
      </div>
    </section>
  );
}
