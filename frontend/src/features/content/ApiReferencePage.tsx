import { Link } from 'react-router-dom';
import { Spinner } from '../../components/Spinner';
import { errorMessage } from '../../lib/api';
import { ApiReference, OPENAPI_URL } from './api-reference/ApiReference';
import { useGetApiDescriptionQuery } from './api-reference/api';
import './content.css';
import './api-reference/api-reference.css';

/** /docs/api: the public API for scripts, rendered from the description the gateway serves. */
export default function ApiReferencePage() {
  const described = useGetApiDescriptionQuery();
  return (
    <div className="content-page content-page--wide api-reference">
      <header className="content-header">
        <h1>API reference</h1>
        <p className="content-lead">Everything the web app does, a script can do too: the same endpoints, described here and in {OPENAPI_URL}.</p>
        <p className="content-muted">
          Scripts sign in with a personal API token, made on your <Link to="/account">Account page</Link> under API tokens. From a terminal, the{' '}
          <code>frametext</code> command-line client (<code>packages/cli</code> in the source) does the whole loop in one line:{' '}
          <code>frametext upload video.mp4 --mode numerical --interval 1 --wait --export csv</code>. The same loop in curl and Python, step by step, is{' '}
          <code>docs/scripting.md</code> in the source.
        </p>
      </header>
      {described.data && <ApiReference doc={described.data} />}
      {described.isError && (
        <div className="alert alert--danger" role="alert">
          <p>
            <strong>The API description could not be loaded.</strong> {errorMessage(described.error)}
          </p>
          <button type="button" className="btn btn--secondary btn--sm" onClick={() => void described.refetch()}>
            Try again
          </button>
        </div>
      )}
      {described.isLoading && <Spinner label="Loading the API description" />}
    </div>
  );
}
