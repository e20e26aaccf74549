import type { UploadDetailsResponse } from '@frametext/contracts';
import { useEffect, useMemo, type ReactNode } from 'react';
import { Link, useParams } from 'react-router-dom';
import { useAppDispatch } from '../../lib/store';
import { toastShown } from '../../lib/ui';
import { errorMessage } from '../../lib/api';
import { useGetUploadDetailsOldQuery, useGetUploadDetailsQuery } from './api';
import { ResultsLoading } from './components/LoadStates';
import { ResultsShell } from './components/ResultsShell';
import { useLocalRecord } from './hooks';
import { viewFromDetails, viewFromLocal } from './model';

export const NOT_READY_TOAST = 'Results not yet available.';
export const NO_RESULTS_TOAST = 'No results found.';
const UNABLE_INLINE = 'Unable to load upload details yet.';
export const DELETED_TITLE = 'This upload was deleted.';
const BACK = { to: '/uploads', label: 'Back to Uploads' };

/**
 * /view-upload/:uploadID (the tabbed view; local- ids come from the browser's database) and
 * /view-upload-numerical/:uploadIDParam (the older numerical screen).
 */
export default function ResultsPage() {
  const { uploadID, uploadIDParam } = useParams();
  const older = uploadIDParam !== undefined;
  const id = uploadID ?? uploadIDParam ?? '';
  const isLocal = !older && id.startsWith('local-');
  const dispatch = useAppDispatch();

  const details = useGetUploadDetailsQuery({ id, mode: 'numerical' }, { skip: isLocal || older || !id });
  const detailsOld = useGetUploadDetailsOldQuery({ id }, { skip: !older || !id });
  const server = older ? detailsOld : details;
  const local = useLocalRecord(isLocal ? id : null);

  const view = useMemo(() => {
    if (isLocal) return local.status === 'done' && local.record ? viewFromLocal(local.record) : null;
    const data = server.data;
    if (!data) return null;
    // The older answer may lack linesByFrame; the view fills lines from the detections then.
    return viewFromDetails(id, { ...data, results: { ...data.results, linesByFrame: data.results.linesByFrame ?? [] } } satisfies UploadDetailsResponse);
  }, [isLocal, local, server.data, id]);

  const loading = isLocal ? local.status === 'loading' : server.isLoading || (server.isFetching && !server.data);
  const failure: string | null = isLocal
    ? local.status === 'error'
      ? local.message
      : local.status === 'done' && !local.record
        ? 'This local upload is not saved in this browser.'
        : null
    : server.isError && !server.data
      ? errorMessage(server.error, NOT_READY_TOAST)
      : null;

  // 410: the signed-in owner deleted it (or retention did); nothing comes back by trying again.
  const deleted = !isLocal && server.isError && (server.error as { status?: unknown } | undefined)?.status === 410;

  useEffect(() => {
    if (failure !== null && !deleted) dispatch(toastShown(older ? NO_RESULTS_TOAST : NOT_READY_TOAST, 'error'));
  }, [failure, deleted, older, dispatch]);

  return (
    <div className="page container">
      {loading && <ResultsLoading label="Loading results" />}
      {!loading && deleted && (
        <ResultsNotice tone="info">
          <p>
            <strong>{DELETED_TITLE}</strong>
          </p>
          <p>Its files and results are gone. Your other uploads are on the uploads page.</p>
        </ResultsNotice>
      )}
      {!loading && failure !== null && !deleted && (
        <ResultsNotice tone="danger">
          <p>
            <strong>{older ? NO_RESULTS_TOAST : UNABLE_INLINE}</strong>
          </p>
          {failure !== NOT_READY_TOAST && <p>{failure}</p>}
          {!isLocal && (
            <button type="button" className="btn btn--secondary btn--sm" onClick={() => void server.refetch()}>
              Try again
            </button>
          )}
        </ResultsNotice>
      )}
      {!loading && failure === null && view && <ResultsShell key={view.uploadID} view={view} back={BACK} only={older ? 'numerical' : undefined} />}
    </div>
  );
}

/** The page when there are no results to show: the way back, the heading, and why (a status, or an alert). */
function ResultsNotice({ tone, children }: { tone: 'info' | 'danger'; children: ReactNode }) {
  return (
    <div className="stack">
      <Link className="results__back" to={BACK.to}>
        ← {BACK.label}
      </Link>
      <h1>Results</h1>
      <div className={`alert alert--${tone}`} role={tone === 'danger' ? 'alert' : 'status'}>
        {children}
      </div>
    </div>
  );
}
