import { Link } from 'react-router-dom';
import { Skeleton } from '../../components/Skeleton';
import { useGetProfileQuery, useGetPublicConfigQuery } from '../../lib/credits/api';
import { CreditRates } from '../../components/credits/CreditRates';
import { PurchaseOptions } from '../../components/credits/PurchaseOptions';
import './onboarding.css';

const STEPS = [
  {
    title: 'Upload your media',
    text: 'Choose a video (mp4 or mov) or a series of photos, say what kind of text it shows (numbers on a display, slides, captions), and how often to capture a frame.',
  },
  {
    title: 'We read the text',
    text: 'FrameText cuts the video into frames and reads every word and number on them, keeping where each one sits. You can watch the progress frame by frame.',
  },
  {
    title: 'View and export',
    text: 'Follow a number over time on a chart, read slides as paragraphs, or list captions by timestamp, then download the results as CSV or TXT.',
  },
] as const;

export default function OnboardingPage() {
  const config = useGetPublicConfigQuery();
  const profile = useGetProfileQuery();

  return (
    <div className="container page onboarding">
      <header className="onboarding__hero">
        <span className="eyebrow">Welcome</span>
        <h1>Welcome to FrameText</h1>
        <p className="lead">Turn the text and numbers in your videos and photos into data you can chart, search and export. Here is how it works.</p>
        <Link to="/upload" className="btn btn--primary btn--lg">
          Upload Media
        </Link>
      </header>

      <section className="section" aria-labelledby="onboarding-how">
        <h2 id="onboarding-how">How it works</h2>
        <ol className="grid grid--3 onboarding__steps">
          {STEPS.map((s, i) => (
            <li key={s.title} className="card">
              <span className="onboarding__num" aria-hidden="true">
                {i + 1}
              </span>
              <h3 className="card__title">{s.title}</h3>
              <p className="muted">{s.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className="section" aria-labelledby="onboarding-credits">
        <h2 id="onboarding-credits">Credits</h2>
        <div className="stack">
          <p>
            {config.data ? (
              <>
                Every new account gets <strong>{config.data.freeCredits} free credits</strong> to try FrameText.
              </>
            ) : (
              <Skeleton width="18rem" />
            )}{' '}
            {profile.data && (
              <>
                You have <strong>{profile.data.credits.toLocaleString('en-US')} credits</strong> now.
              </>
            )}
          </p>
          <p className="muted">
            An upload costs its number of frames times the engine’s rate, rounded up. A 10-minute video read every 15 seconds is 40 frames: 4 credits with Basic. We only
            charge for frames that were actually processed.
          </p>
          <CreditRates />
        </div>
      </section>

      <section className="section" aria-labelledby="onboarding-buy">
        <h2 id="onboarding-buy">Purchase options</h2>
        <p className="muted">Need more? Credits come in three packs and never expire.</p>
        <PurchaseOptions />
      </section>

      <section className="onboarding__cta card card--accent">
        <div>
          <h2>Ready when you are</h2>
          <p className="muted">Start with a short clip or a few photos to see what FrameText finds.</p>
        </div>
        <Link to="/upload" className="btn btn--primary btn--lg">
          Upload Media
        </Link>
      </section>

    </div>
  );
}
