import { CREDIT_PACKS } from '@frametext/contracts/rules';
import { enterpriseMailto, ENTERPRISE_SUBJECT } from '../../../lib/contact';
import { CHARGE_RULE } from '../../../lib/credits/chargeRule';

const dollars = (cents: number) => `$${(cents / 100).toFixed(cents % 100 === 0 ? 0 : 2)}`;

/** The smallest pack sets the list price per credit; bigger packs show their discount against it. */
const listCentsPerCredit = CREDIT_PACKS[0].priceCents / CREDIT_PACKS[0].credits;
const discountPercent = (credits: number, priceCents: number) => Math.round((1 - priceCents / (credits * listCentsPerCredit)) * 100);

export function Pricing({ freeCredits }: { freeCredits: number | null }) {
  return (
    <section className="landing-section" aria-labelledby="landing-pricing">
      <h2 id="landing-pricing">Pay for frames, not for a subscription</h2>
      <p className="landing-section__lead">
        Credits never expire and work with every engine.
        {freeCredits !== null && <> Every new account gets {freeCredits} free credits to try FrameText on real media.</>}
      </p>
      <p className="landing-section__lead">{CHARGE_RULE}</p>
      <ul className="landing-grid landing-grid--three">
        {CREDIT_PACKS.map((pack) => {
          const discount = discountPercent(pack.credits, pack.priceCents);
          return (
            <li key={pack.credits} className="landing-card landing-price">
              <h3>{pack.credits.toLocaleString('en-US')} credits</h3>
              <p className="landing-price__amount">{dollars(pack.priceCents)}</p>
              {discount > 0 && <p className="badge badge--success">{discount}% off</p>}
            </li>
          );
        })}
      </ul>
      <p className="landing-section__after">
        Need more, or an invoice for a team? <a href={enterpriseMailto}>E-mail us</a> with the subject “{ENTERPRISE_SUBJECT}” and we will set up a custom
        plan.
      </p>
    </section>
  );
}
