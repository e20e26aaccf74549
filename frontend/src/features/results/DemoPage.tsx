import type { UploadDetailsResponse } from '@frametext/contracts';
import { useMemo } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { errorMessage } from '../../lib/api';
import { useSession } from '../../lib/auth/hooks';
import { SIGN_UP_PATH } from '../../lib/auth/paths';
import { useGetUploadDetailsQuery } from './api';
import { ResultsLoading } from './components/LoadStates';
import { ResultsShell } from './components/ResultsShell';
import { viewFromDetails } from './model';
import './results.css';

const DEMO_ID = 'demo';

/** /demo: the results view over the sample upload, open to everyone; the landing page may hand the data over. */
export default function DemoPage() {
  const handedOver = (useLocation().state as { demoData?: UploadDetailsResponse } | null)?.demoData;
  const fetched = useGetUploadDetailsQuery({ id: DEMO_ID, mode: 'numerical' }, { skip: Boolean(handedOver) });
  const signedIn = useSession() !== null;
  const data = handedOver ?? fetched.data;
  const view = useMemo(() => (data ? viewFromDetails(DEMO_ID, data, { demo: true }) : null), [data]);

  return (
    <div className="page container stack stack--lg">
      <aside className="alert alert--info demo-banner" aria-label="About this demo">
        <p>
          <strong>This is the demo.</strong> These are the results FrameText produced from a sample video. Sign up to read the text in your own videos and photos.
        </p>
        {signedIn ? (
          <Link className="btn btn--primary btn--sm" to="/uploads">
            Go to Dashboard
          </Link>
        ) : (
          <Link className="btn btn--primary btn--sm" to={SIGN_UP_PATH}>
            Sign up for free
          </Link>
        )}
      </aside>
      {!view && fetched.isError && (
        <div className="alert alert--danger" role="alert">
          <p>
            <strong>The demo could not be loaded.</strong> {errorMessage(fetched.error)}
          </p>
          <button type="button" className="btn btn--secondary btn--sm" onClick={() => void fetched.refetch()}>
            Try again
          </button>
        </div>
      )}
      {!view && !fetched.isError && <ResultsLoading label="Loading the demo" />}
      {view && <ResultsShell view={view} back={{ to: '/', label: 'Back to home' }} />}
    </div>
  );
}
