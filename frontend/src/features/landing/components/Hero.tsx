import { Link } from 'react-router-dom';
import { SIGN_UP_PATH } from '../../../lib/auth/paths';
import { useLazyGetLandingDemoQuery } from '../api';

interface Props {
  signedIn: boolean;
  freeCredits: number | null;
}

export function Hero({ signedIn, freeCredits }: Props) {
  const [fetchDemo, { data: demoData }] = useLazyGetLandingDemoQuery();
  // Fetched when the visitor shows interest, not on every visit; the demo page fetches it itself otherwise.
  const prefetchDemo = () => void fetchDemo(undefined, true);

  return (
    <section className="landing-hero" aria-labelledby="landing-title">
      <p className="landing-eyebrow">Video and photo OCR, frame by frame</p>
      <h1 id="landing-title">Turn the text on your screen into a spreadsheet.</h1>
      <p className="landing-hero__lead">
        FrameText reads the words and numbers shown in your videos, photos and photo series and hands them back as CSV or TXT, one row per frame, with
        the time each value appeared.
      </p>
      <div className="landing-actions">
        <Link
          className="btn btn--secondary btn--lg"
          to="/demo"
          state={demoData ? { demoData } : undefined}
          onPointerEnter={prefetchDemo}
          onFocus={prefetchDemo}
          onTouchStart={prefetchDemo}
        >
          Try the demo
        </Link>
        {signedIn ? (
          <Link className="btn btn--primary btn--lg" to="/uploads">
            Go to Dashboard
          </Link>
        ) : (
          <Link className="btn btn--primary btn--lg" to={SIGN_UP_PATH}>
            Sign up for free
          </Link>
        )}
      </div>
      {freeCredits !== null && !signedIn && (
        <p className="landing-hero__note" data-testid="free-credits-hero">
          New accounts start with {freeCredits} free credits. No card needed.
        </p>
      )}
    </section>
  );
}
