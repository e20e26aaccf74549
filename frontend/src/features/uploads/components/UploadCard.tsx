import type { UploadListItem } from '@frametext/contracts';
import { foundAlmostNoText, type MediaContent } from '@frametext/contracts/rules';
import { Skeleton } from '../../../components/Skeleton';
import { badgeFor, formatUploadDate } from '../hooks';

const MODE_LABELS: Record<MediaContent, string> = { numerical: 'Numerical', captions: 'Captions', presentation: 'Presentation', scroll: 'Scroll' };

/** "Numerical · 120 frames": the mode, and the frame count once the upload is read. */
function modeAndFrames({ mediaContent, textFound }: UploadListItem): string {
  const mode = MODE_LABELS[mediaContent];
  return textFound ? `${mode} · ${textFound.frames} ${textFound.frames === 1 ? 'frame' : 'frames'}` : mode;
}

interface Props {
  upload: UploadListItem;
  selected: boolean;
  busy: boolean;
  onToggle: (id: string) => void;
  onOpen: (upload: UploadListItem) => void;
}

/**
 * One upload. The name button opens it and stretches over the whole card, so a click anywhere opens it; the
 * checkbox beside the name sits above that layer and selects it for deletion (on the picture it hid its text).
 */
export function UploadCard({ upload, selected, busy, onToggle, onOpen }: Props) {
  const badge = badgeFor(upload.status);
  return (
    <li className={`upload-card${selected ? ' upload-card--selected' : ''}`} aria-busy={busy || undefined}>
      <div className="upload-card__thumb">
        {upload.imageUrl ? <img src={upload.imageUrl} alt="" loading="lazy" /> : <span className="upload-card__placeholder" aria-hidden="true" />}
      </div>
      <div className="upload-card__body">
        <div className="upload-card__title">
          <button type="button" className="upload-card__open" onClick={() => onOpen(upload)} disabled={busy}>
            {upload.uploadName}
          </button>
          <input className="upload-card__select" type="checkbox" checked={selected} onChange={() => onToggle(upload.id)} aria-label={`Select ${upload.uploadName}`} />
        </div>
        <div className="upload-card__meta">
          <time className="muted small" dateTime={upload.uploadedAt}>
            {formatUploadDate(upload.uploadedAt)}
          </time>
          {upload.isLocal && <span className="badge">Local</span>}
          {badge && <span className={`badge ${badge.kind === 'failed' ? 'badge--danger' : 'badge--warning'}`}>{badge.text}</span>}
          {upload.textFound && foundAlmostNoText(upload.textFound) && <span className="badge badge--info">No text found</span>}
        </div>
        <p className="muted small upload-card__mode">{modeAndFrames(upload)}</p>
      </div>
    </li>
  );
}

/** Placeholders shaped like cards while the list loads. */
export function SkeletonCards({ count = 6 }: { count?: number }) {
  return (
    <div aria-busy="true">
      <p className="visually-hidden" role="status">
        Loading uploads
      </p>
      <ul className="uploads-grid" aria-hidden="true">
        {Array.from({ length: count }, (_, i) => (
          <li key={i} className="upload-card" data-testid="upload-skeleton">
            <Skeleton className="upload-card__thumb" height="auto" radius="0" />
            <div className="upload-card__body">
              <Skeleton width="70%" height="1.1rem" />
              <Skeleton width="45%" height="0.9rem" />
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
