import { useState } from 'react';
import { Skeleton } from '../../components/Skeleton';
import { useSignOut } from '../../lib/auth/useSignOut';
import { useUser } from '../../lib/auth/hooks';
import { useGetProfileQuery } from '../../lib/credits/api';
import { CreditRates } from '../../components/credits/CreditRates';
import { PurchaseCreditsModal } from '../../components/credits/PurchaseCreditsModal';
import { PurchaseOptions } from '../../components/credits/PurchaseOptions';
import { tierLabel, tierNote } from '../../lib/credits/tiers';
import { errorMessage } from '../../lib/api';
import { SUPPORT_EMAIL, enterpriseMailto } from '../../lib/contact';
import { ApiTokensSection } from './components/ApiTokensSection';
import { ChangePasswordSection } from './components/ChangePasswordSection';
import { DeleteAccountDialog } from './components/DeleteAccountDialog';
import { WebhooksSection } from './webhooks/WebhooksSection';
import './account.css';

/**
 * The signed-in person's account: e-mail, balance and plan, purchase options by tier, support and custom plans, the
 * password, API tokens for scripts, and deleting the account.
 */
export default function AccountPage() {
  const user = useUser();
  const profile = useGetProfileQuery();
  const { signOut, busy } = useSignOut();
  const [buying, setBuying] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const email = profile.data?.email || user?.email || '';

  return (
    <div className="container page account">
      <div className="page__header">
        <h1>Account</h1>
        <button type="button" className="btn btn--secondary" onClick={() => void signOut()} disabled={busy}>
          Sign out
        </button>
      </div>

      <div className="grid grid--2">
        <section className="card stack" aria-labelledby="account-profile">
          <h2 id="account-profile" className="card__title">
            Profile
          </h2>
          <div className="field">
            <label htmlFor="account-email">Email</label>
            <input id="account-email" className="input" type="email" value={email} readOnly aria-readonly="true" />
          </div>
          <p className="muted small">Your email is how you log in. To change it, write to support.</p>
        </section>

        <section className="card stack" aria-labelledby="account-credits">
          <h2 id="account-credits" className="card__title">
            Credits
          </h2>
          {profile.isLoading ? (
            <Skeleton height="2.5rem" width="12rem" />
          ) : profile.data ? (
            <>
              <p className="account__balance">
                <strong>{profile.data.credits.toLocaleString('en-US')}</strong> credits
              </p>
              <p className="muted">
                Plan: <span className="badge badge--info">{tierLabel(profile.data.subscription_tier)}</span>
              </p>
              {tierNote(profile.data.subscription_tier) && <p className="muted small">{tierNote(profile.data.subscription_tier)}</p>}
            </>
          ) : (
            <p className="alert alert--danger" role="alert">
              {errorMessage(profile.error, 'Your balance could not be loaded. Please reload the page.')}
            </p>
          )}
          <div className="cluster">
            <button type="button" className="btn btn--primary" onClick={() => setBuying(true)}>
              Purchase Credits
            </button>
          </div>
        </section>
      </div>

      <section className="section account__section" aria-labelledby="account-packs">
        <h2 id="account-packs">Purchase options</h2>
        <p className="muted">Credits pay for the frames we read; what a frame costs depends on the engine.</p>
        <PurchaseOptions />
        <h3 className="account__rates">What a frame costs</h3>
        <CreditRates />
      </section>

      <div className="grid grid--2">
        <section className="card stack" aria-labelledby="account-enterprise">
          <h2 id="account-enterprise" className="card__title">
            Enterprise and custom plans
          </h2>
          <p>Processing a lot of media, or need invoices, a custom volume or a team account? Tell us what you need.</p>
          <a className="btn btn--secondary" href={enterpriseMailto}>
            Enterprise Account Request
          </a>
        </section>
        <section className="card stack" aria-labelledby="account-support">
          <h2 id="account-support" className="card__title">
            Support
          </h2>
          <p>
            Questions about an upload, a payment or your data? Write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> and we answer within one working day.
          </p>
        </section>
      </div>

      <ChangePasswordSection />

      <ApiTokensSection />

      <WebhooksSection />

      <section className="card stack account__danger" aria-labelledby="account-delete">
        <h2 id="account-delete" className="card__title">
          Delete account
        </h2>
        <p>
          Deleting your account removes it for good, with all your uploads, their files and their results. Credits you have left are forfeited. You are
          signed out everywhere within seconds.
        </p>
        <div className="cluster">
          <button type="button" className="btn btn--danger" onClick={() => setDeleting(true)}>
            Delete account
          </button>
        </div>
      </section>

      {buying && <PurchaseCreditsModal onClose={() => setBuying(false)} />}
      {deleting && <DeleteAccountDialog email={email} credits={profile.data?.credits} onClose={() => setDeleting(false)} />}
    </div>
  );
}
