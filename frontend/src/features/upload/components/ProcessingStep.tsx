import { useEffect, useState } from 'react';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { errorMessage } from '../../../lib/api';
import { useCheckUploadStatusQuery, type UploadStatus } from '../api';
import type { StartedUpload } from '../hooks/useUploadTransfer';
import { ProgressBar } from '../../../components/ProgressBar';
import { formatBytes } from '../rules';

interface ProcessingStepProps {
  upload: StartedUpload;
  pollMs: number;
  /** The status that said processed: what the reading found and what it was charged. */
  onProcessed: (status: UploadStatus) => void;
  onStartOver: () => void;
}

/** Words for a failed poll: the status is polled again either way. */
function pollProblem(error: unknown): string | null {
  const status = (error as FetchBaseQueryError | undefined)?.status;
  if (status === undefined) return null;
  return `${errorMessage(error)} Still checking every few seconds.`;
}

/** "Waiting in the queue: 2 uploads ahead" while none of the frames has been read and others go first. */
export function queueNotice(framesDone: number, uploadsAhead: number | undefined): string | null {
  if (framesDone > 0 || !uploadsAhead) return null;
  return `Waiting in the queue: ${uploadsAhead} ${uploadsAhead === 1 ? 'upload' : 'uploads'} ahead`;
}

/**
 * What the bar counts out of (none: it cannot tell yet) and the words under it. Frames are read while the video is
 * still being cut, before their total is known; until then they count out of the most the upload can have
 * (`maxFrames` of the quote: no more are ever extracted).
 */
export function progressOf(done: number, total: number | null, atMost: number | undefined): { outOf?: number; detail: string } {
  if (total) return { outOf: total, detail: `${done} of ${total} frames` };
  if (done === 0) return { detail: 'Extracting frames…' };
  if (atMost) return { outOf: atMost, detail: `${done} of up to ${atMost} frames` };
  return { detail: `${done} ${done === 1 ? 'frame' : 'frames'} read, more still being extracted…` };
}

/**
 * Step 2: frames done out of frames total, polled until the upload is processed or has failed; while its frames
 * wait behind other uploads, how many are ahead.
 */
export function ProcessingStep({ upload, pollMs, onProcessed, onStartOver }: ProcessingStepProps) {
  const [settled, setSettled] = useState(false);
  const { data, error } = useCheckUploadStatusQuery(upload.uploadID, { pollingInterval: settled ? 0 : pollMs, skipPollingIfUnfocused: false });
  const status = data?.status;
  // Processed and failed are final: polling stops for good (kept while rendering, not in an effect).
  if (!settled && (status === 'processed' || status === 'failed')) setSettled(true);

  useEffect(() => {
    if (data?.status === 'processed') onProcessed(data);
  }, [data, onProcessed]);

  if (status === 'failed') {
    return (
      <section className="stack" aria-labelledby="processing-failed">
        <div className="alert alert--danger" role="alert">
          <h2 id="processing-failed" className="alert__title">
            This upload failed
          </h2>
          <p>{data?.failureReason ?? 'The server did not say why. Please try again, or contact support if it keeps happening.'}</p>
          <p>Credits held for it have been released.</p>
        </div>
        <StartOver onClick={onStartOver} primary />
      </section>
    );
  }

  if (status === 'downloading' || (upload.byLink && !data)) {
    const percent = data?.download?.percent ?? null;
    const bytes = data?.download?.bytes ?? 0;
    return (
      <section className="stack" aria-labelledby="processing-heading">
        <h2 id="processing-heading">Fetching the video</h2>
        <ProgressBar
          label="Download progress"
          value={percent ?? 0}
          max={100}
          indeterminate={percent === null}
          detail={percent !== null ? `${percent}% fetched` : bytes > 0 ? `${formatBytes(bytes)} fetched` : 'Starting the download…'}
        />
        <p className="muted small">Once the video is in, its frames are read as for an uploaded file. You can leave this page.</p>
        <StartOver onClick={onStartOver} />
      </section>
    );
  }

  const total = data?.framesTotal ?? null;
  const done = data?.framesDone ?? 0;
  const problem = pollProblem(error);
  const queued = queueNotice(done, data?.uploadsAhead);
  const { framesRequested, maxFrames } = upload.quote;
  const { outOf, detail } = progressOf(done, total, maxFrames);
  return (
    <section className="stack" aria-labelledby="processing-heading">
      <h2 id="processing-heading">Reading the text</h2>
      <ProgressBar
        label="Processing progress"
        value={done}
        max={outOf || 1}
        indeterminate={!outOf}
        detail={detail}
      />
      {queued && (
        <p className="alert alert--info" role="status">
          {queued}. Your frames are read as soon as a reader is free; it can take a few minutes.
        </p>
      )}
      {problem && (
        <p className="muted" role="status">
          {problem}
        </p>
      )}
      {!upload.byLink && maxFrames !== undefined && framesRequested !== undefined && maxFrames < framesRequested && (
        <p className="alert alert--info">
          Your credits cover {maxFrames} of the {framesRequested} frames: only the first {maxFrames} frames will be processed.
        </p>
      )}
      <p className="muted small">You can leave this page: the upload keeps processing and appears in your uploads list.</p>
      <StartOver onClick={onStartOver} />
    </section>
  );
}

/** The step's way back to an empty form: the main action once the upload failed, a quiet one while it goes on. */
function StartOver({ onClick, primary = false }: { onClick: () => void; primary?: boolean }) {
  return (
    <div className="cluster">
      <button type="button" className={`btn ${primary ? 'btn--primary' : 'btn--secondary'}`} onClick={onClick}>
        Start Over
      </button>
    </div>
  );
}
