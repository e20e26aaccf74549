import type { UploadListItem } from '@frametext/contracts';
import { useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useAppDispatch } from '../../lib/store';
import { toastShown } from '../../lib/ui';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { api, errorMessage } from '../../lib/api';
import { useGetProfileQuery } from '../../lib/credits/api';
import { PurchaseCreditsModal } from '../../components/credits/PurchaseCreditsModal';
import { useDeleteUploadsMutation, useGetUploadsQuery, useLazyRecheckUploadStatusQuery } from './api';
import { SkeletonCards, UploadCard } from './components/UploadCard';
import { isInProgress, useLocalUploads } from './hooks';
import { isLocalId } from '../../lib/localRecords';
import { deleteLocalUploads } from './localUploads';
import './uploads.css';

/** While an upload is on its way, the list asks again this often. */
export const LIST_REFRESH_MS = 10_000;
export const STILL_PROCESSING = 'Still processing.';

const plural = (n: number) => (n === 1 ? '1 upload' : `${n} uploads`);
/** The delete confirmation names at most this many uploads, then says how many more. */
const NAMED_IN_CONFIRMATION = 10;
const byNewest = (a: UploadListItem, b: UploadListItem) => b.uploadedAt.localeCompare(a.uploadedAt);

export default function UploadsPage() {
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const profile = useGetProfileQuery();
  const [refreshMs, setRefreshMs] = useState(0);
  const remote = useGetUploadsQuery(undefined, { pollingInterval: refreshMs, skipPollingIfUnfocused: true });
  const local = useLocalUploads();
  const [recheck] = useLazyRecheckUploadStatusQuery();
  const [deleteUploads] = useDeleteUploadsMutation();

  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [checkingId, setCheckingId] = useState<string | null>(null);
  const [purchasing, setPurchasing] = useState(false);

  const uploads = useMemo(() => [...(remote.data ?? []), ...local.items].sort(byNewest), [remote.data, local.items]);
  const anyInProgress = remote.data?.some((u) => isInProgress(u.status)) ?? false;
  // The list asks again while an upload is on its way (adjusted while rendering: the answer decides the interval).
  const wantedRefreshMs = anyInProgress ? LIST_REFRESH_MS : 0;
  if (wantedRefreshMs !== refreshMs) setRefreshMs(wantedRefreshMs);

  // Forget selections of uploads that are gone (deleted elsewhere, or expired).
  const [listed, setListed] = useState(uploads);
  if (listed !== uploads) {
    setListed(uploads);
    const present = new Set(uploads.map((u) => u.id));
    const kept = [...selected].filter((id) => present.has(id));
    if (kept.length !== selected.size) setSelected(new Set(kept));
  }

  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const viewPath = (upload: UploadListItem) => `/view-upload/${encodeURIComponent(upload.id)}`;
  const openUpload = (upload: UploadListItem) => navigate(viewPath(upload), { state: { mediaContent: upload.mediaContent } });

  async function onOpen(upload: UploadListItem) {
    if (upload.status === 'processed') {
      openUpload(upload);
      return;
    }
    setCheckingId(upload.id);
    try {
      const now = await recheck(upload.id).unwrap();
      if (now.status !== upload.status) dispatch(api.util.invalidateTags(['Uploads']));
      if (now.status === 'processed') openUpload(upload);
      else if (now.status === 'failed') dispatch(toastShown(`This upload failed: ${now.failureReason ?? 'no reason was given.'}`, 'error'));
      else dispatch(toastShown(STILL_PROCESSING, 'info'));
    } catch (error) {
      dispatch(toastShown(errorMessage(error), 'error'));
    } finally {
      setCheckingId(null);
    }
  }

  async function onDeleteConfirmed() {
    const ids = [...selected];
    const localIds = ids.filter(isLocalId);
    const serverIds = ids.filter((id) => !isLocalId(id));
    setDeleting(true);
    try {
      if (serverIds.length > 0) await deleteUploads(serverIds).unwrap();
      if (localIds.length > 0) {
        await deleteLocalUploads(localIds);
        local.reload();
      }
      setSelected(new Set());
      dispatch(toastShown(`Deleted ${plural(ids.length)}.`, 'success'));
    } catch (error) {
      dispatch(toastShown(`Could not delete the uploads: ${errorMessage(error)}`, 'error'));
    } finally {
      setDeleting(false);
      setConfirming(false);
    }
  }

  const toDelete = uploads.filter((u) => selected.has(u.id));
  const loading = remote.isLoading || local.loading;
  const credits = profile.data?.credits;

  return (
    <div className="page container">
      <header className="page__header">
        <h1>Uploads</h1>
        <div className="cluster">
          <button type="button" className="btn btn--primary" onClick={() => navigate('/upload')}>
            New Upload
          </button>
          <button type="button" className="btn btn--secondary" onClick={() => navigate('/local')}>
            New Local Upload
          </button>
        </div>
      </header>

      <section className="uploads-toolbar" aria-label="Credits and selection">
        <div className="uploads-credits">
          <span>
            <span className="muted">Credits: </span>
            <span className="uploads-credits__value" data-testid="credit-balance">
              {credits ?? (profile.isError ? 'unavailable' : '…')}
            </span>
          </span>
          <button type="button" className="btn btn--secondary btn--sm" onClick={() => setPurchasing(true)}>
            Purchase Credits
          </button>
        </div>
        <div className="cluster">
          {selected.size > 0 && <span className="muted small">{plural(selected.size)} selected</span>}
          <button type="button" className="btn btn--danger btn--sm" disabled={selected.size === 0 || deleting} onClick={() => setConfirming(true)}>
            Delete Selected
          </button>
        </div>
      </section>

      {remote.isError && (
        <div className="alert alert--danger" role="alert">
          <p>
            <strong>We could not load your uploads.</strong> {errorMessage(remote.error)}
          </p>
          <button type="button" className="btn btn--secondary btn--sm" onClick={() => void remote.refetch()}>
            Try again
          </button>
        </div>
      )}
      {local.failed && <p className="alert alert--info">Uploads saved in this browser could not be read, so only your server uploads are listed.</p>}

      {loading ? (
        <SkeletonCards />
      ) : uploads.length === 0 ? (
        !remote.isError && (
          <div className="uploads-empty">
            <h2>No uploads yet</h2>
            <p className="muted">Upload a video or a few photos and FrameText reads the text in them for you.</p>
            <Link className="btn btn--primary" to="/upload">
              Start your first upload
            </Link>
          </div>
        )
      ) : (
        <ul className="uploads-grid" aria-label="Your uploads">
          {uploads.map((upload) => (
            <UploadCard key={upload.id} upload={upload} selected={selected.has(upload.id)} busy={checkingId === upload.id} onToggle={toggle} onOpen={(u) => void onOpen(u)} />
          ))}
        </ul>
      )}

      {confirming && (
        <ConfirmDialog
          title={toDelete.length === 1 ? `Delete “${toDelete[0]!.uploadName}”?` : `Delete ${plural(toDelete.length)}?`}
          confirmLabel="Delete"
          danger
          busy={deleting}
          onConfirm={() => void onDeleteConfirmed()}
          onCancel={() => setConfirming(false)}
        >
          {toDelete.length > 1 && (
            <ul>
              {toDelete.slice(0, NAMED_IN_CONFIRMATION).map((u) => (
                <li key={u.id}>{u.uploadName}</li>
              ))}
              {toDelete.length > NAMED_IN_CONFIRMATION && <li>and {plural(toDelete.length - NAMED_IN_CONFIRMATION)} more</li>}
            </ul>
          )}
          <p>
            {toDelete.length === 1 ? `“${toDelete[0]!.uploadName}”, with its frames and results,` : `These ${toDelete.length} uploads, with their frames and results,`} will be removed for good.
          </p>
        </ConfirmDialog>
      )}
      {purchasing && <PurchaseCreditsModal onClose={() => setPurchasing(false)} />}
    </div>
  );
}
