import { useEffect, useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { CheckoutStatus } from '@frametext/contracts';
import { useAppDispatch } from '../../lib/store';
import { useSession } from '../../lib/auth/hooks';
import { creditsApi, useGetCheckoutSessionQuery, useGetProfileQuery } from '../../lib/credits/api';
import { PROFILE_WATCH_DURATION_MS, watchProfileAfterCheckout } from '../../lib/credits/profileWatch';
import './checkout.css';

/** How often the page asks whether the payment has been confirmed. */
export const CONFIRMATION_POLL_MS = 2_000;
const SESSION_ID = /^cs_[A-Za-z0-9_]{1,250}$/;
const FINAL: readonly CheckoutStatus[] = ['credited', 'expired', 'failed'];

const credits = (n: number) => `${n.toLocaleString('en-US')} credits`;

/**
 * Follows the purchase the payment page came back from (`?session_id=`) until its credits are on the balance,
 * for at most two minutes; answers the new balance once it has been fetched after that.
 */
function usePurchaseConfirmation(sessionId: string | null, signedIn: boolean) {
  const dispatch = useAppDispatch();
  const [gaveUp, setGaveUp] = useState(false);
  const [newBalance, setNewBalance] = useState<number | null>(null);
  const following = signedIn && sessionId !== null;

  const [lastStatus, setLastStatus] = useState<CheckoutStatus | undefined>(undefined);
  const final = lastStatus !== undefined && FINAL.includes(lastStatus);
  const purchase = useGetCheckoutSessionQuery(sessionId ?? '', { skip: !following, pollingInterval: following && !final && !gaveUp ? CONFIRMATION_POLL_MS : 0 });
  const status = purchase.data?.status;

  // A final status stays final (polling stops on it), so it is kept while rendering rather than in an effect.
  if (status && status !== lastStatus && !final) setLastStatus(status);

  useEffect(() => {
    if (!following) return;
    const timer = setTimeout(() => setGaveUp(true), PROFILE_WATCH_DURATION_MS);
    return () => clearTimeout(timer);
  }, [following]);

  useEffect(() => {
    if (status !== 'credited') return;
    // Refresh the profile every page shares, and show the balance it answers.
    const request = dispatch(creditsApi.endpoints.getProfile.initiate(undefined, { forceRefetch: true, subscribe: false }));
    request.unwrap().then(
      (profile) => setNewBalance(profile.credits),
      () => setNewBalance(null),
    );
  }, [status, dispatch]);

  return { following, status, purchase, gaveUp, newBalance };
}

/** Where the payment page sends a person back after paying. */
export default function CheckoutSuccessPage() {
  const session = useSession();
  const dispatch = useAppDispatch();
  const [params] = useSearchParams();
  const raw = params.get('session_id');
  const sessionId = raw && SESSION_ID.test(raw) ? raw : null;
  const { following, status, purchase, gaveUp, newBalance } = usePurchaseConfirmation(sessionId, !!session);
  const profile = useGetProfileQuery(undefined, { skip: !session || following });

  // Without a session id to follow, keep the balance fresh the way the purchase dialog does.
  useEffect(() => {
    if (!session || following) return;
    return watchProfileAfterCheckout(dispatch);
  }, [session, following, dispatch]);

  const unpaid = status === 'failed' || status === 'expired';
  let balance: ReactNode = null;
  if (session && following) {
    if (status === 'credited' && newBalance !== null) {
      balance = (
        <>
          {credits(purchase.data!.credits)} were added. Your balance: <strong>{credits(newBalance)}</strong>
        </>
      );
    } else if (unpaid) {
      balance = 'The payment did not go through, so no credits were added. You can choose a pack again from your uploads list.';
    } else if (status === 'processing') {
      balance = 'Your bank is still confirming the payment. The credits are added as soon as it does, which can take a few days.';
    } else if (purchase.isError) {
      balance = 'Your purchase could not be looked up just now; your balance on the uploads list updates by itself.';
    } else if (gaveUp) {
      balance = 'The confirmation is taking longer than usual. Your balance updates by itself once it arrives; if it has not within an hour, write to support.';
    } else {
      balance = 'Waiting for the payment confirmation…';
    }
  } else if (session) {
    balance = profile.data ? (
      <>
        Your balance: <strong>{credits(profile.data.credits)}</strong>
      </>
    ) : profile.isError ? (
      'Your balance could not be loaded just now; it is shown on your uploads list.'
    ) : (
      'Loading your balance…'
    );
  }

  return (
    <div className="container container--narrow page checkout">
      <div className="card checkout__card">
        {unpaid ? (
          <>
            <span className="checkout__icon" aria-hidden="true">
              !
            </span>
            <h1>Payment not completed</h1>
          </>
        ) : (
          <>
            <span className="checkout__icon checkout__icon--ok" aria-hidden="true">
              ✓
            </span>
            <h1>Thank you for your purchase</h1>
            <p className="lead">Your payment went through. The credits are added to your account as soon as the payment is confirmed, usually within a few seconds.</p>
          </>
        )}
        {balance && (
          <p className="checkout__balance" aria-live="polite" data-testid="checkout-balance">
            {balance}
          </p>
        )}
        <Link to="/uploads" className="btn btn--primary">
          Return to dashboard
        </Link>
      </div>
    </div>
  );
}
