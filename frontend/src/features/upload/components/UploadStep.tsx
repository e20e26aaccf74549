import { useEffect, useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { GetUploadUrlRequest } from '@frametext/contracts';
import { DEFAULT_FRAME_INTERVAL, DEFAULT_MEDIA_CONTENT, SERVER_ENGINES, SLIDE_SAMPLE_SECONDS, slideDetectionFrames, type ServerEngine } from '@frametext/contracts/rules';
import { useAppDispatch } from '../../../lib/store';
import { toastShown } from '../../../lib/ui';
import { errorMessage } from '../../../lib/api';
import { useGetProfileQuery, useGetPublicConfigQuery } from '../../../lib/credits/api';
import { languagesClash } from '../languages';
import { classifyFiles, formatBytes, formatDuration, MESSAGES, photoSpanSeconds, pickEngine, quote, uploadBlocker, videoFrames, videoLinkId } from '../rules';
import { useSelectedMedia } from '../hooks/useSelectedMedia';
import { useUploadTransfer, type StartedUpload } from '../hooks/useUploadTransfer';
import { CostPanel } from './CostPanel';
import { MediaOptions, type MediaOptionsValue } from './MediaOptions';
import { ProgressBar } from '../../../components/ProgressBar';
import { PurchaseCredits } from './PurchaseCredits';

const ENGINE_LABELS: Record<ServerEngine, string> = { cloud: 'Cloud AI', server: 'Basic' };
const rateText = (creditsPerFrame: number, framesPerCredit: number) =>
  creditsPerFrame >= 1 ? `${creditsPerFrame} ${creditsPerFrame === 1 ? 'credit' : 'credits'} per frame` : `${framesPerCredit} frames per credit`;
const isServerEngine = (engine: string): engine is ServerEngine => (SERVER_ENGINES as readonly string[]).includes(engine);

const INITIAL_OPTIONS: MediaOptionsValue = {
  mediaContent: DEFAULT_MEDIA_CONTENT,
  interval: DEFAULT_FRAME_INTERVAL,
  sortPreference: 'name',
  slideDetection: true,
  originalLanguage: null,
  targetLanguage: null,
};

/** Step 1: what to read, how, what it costs; then the transfer with real byte progress. */
export function UploadStep({ onStarted }: { onStarted: (upload: StartedUpload) => void }) {
  const dispatch = useAppDispatch();
  const ids = useId();
  // Engine availability follows the servers' workers: read it afresh when the wizard opens.
  const config = useGetPublicConfigQuery(undefined, { refetchOnMountOrArgChange: true });
  const profile = useGetProfileQuery();
  const [chosenEngine, setChosenEngine] = useState<ServerEngine | null>(null);
  const [uploadName, setUploadName] = useState('');
  const [files, setFiles] = useState<File[]>([]);
  const [videoLink, setVideoLink] = useState('');
  const [options, setOptions] = useState<MediaOptionsValue>(INITIAL_OPTIONS);
  const media = useSelectedMedia(files);
  const transfer = useUploadTransfer(onStarted);

  // Upload offers the engines that run on our servers; the Local engine has its own page.
  const engines = (config.data?.engines ?? []).filter((e) => isServerEngine(e.engine));
  const engine = pickEngine(engines, chosenEngine);
  const credits = profile.data?.credits ?? null;

  const selection = media.selection;
  const [firstFile] = files;
  const linkId = files.length === 0 ? videoLinkId(videoLink) : null;
  // With slide detection a video is quoted for the most slides it can find, and pays for the ones it finds.
  const detectingSlides = selection?.kind === 'video' && options.mediaContent === 'presentation' && options.slideDetection;
  const videoFrameCount = (duration: number) => (detectingSlides ? slideDetectionFrames(duration) : videoFrames(duration, options.interval));
  const frames = selection?.kind === 'photos' ? files.length : selection?.kind === 'video' && media.duration !== null ? videoFrameCount(media.duration) : null;
  const cost = frames !== null && engine ? quote({ frames, engine, credits }) : null;
  const byLink = linkId !== null && selection === null;

  useEffect(() => {
    if (!transfer.running) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [transfer.running]);

  const onFiles = (e: ChangeEvent<HTMLInputElement>) => {
    const picked = Array.from(e.target.files ?? []);
    const verdict = classifyFiles(picked);
    if (verdict && !verdict.ok) {
      dispatch(toastShown(verdict.message, 'error'));
      e.target.value = '';
      setFiles([]);
      return;
    }
    setFiles(picked);
  };

  const onOptions = (patch: Partial<MediaOptionsValue>) => {
    const next = { ...options, ...patch };
    if (languagesClash(next.originalLanguage, next.targetLanguage)) {
      dispatch(toastShown(MESSAGES.sameLanguages, 'error'));
      next.targetLanguage = null;
    }
    setOptions(next);
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (!transfer.running && byLink && engine) return submitLink(engine);
    if (transfer.running || !selection || !engine || !cost || !firstFile) return;
    const blocker = uploadBlocker({ uploadName, credits });
    if (blocker) {
      dispatch(toastShown(blocker, 'error'));
      return;
    }
    const captions = options.mediaContent === 'captions';
    const common = {
      uploadName: uploadName.trim(),
      ocrType: engine,
      mediaContent: options.mediaContent,
      originalLanguage: options.originalLanguage,
      targetLanguage: captions ? options.targetLanguage : null,
      youtubeLink: null,
      slideDetection: options.mediaContent === 'presentation' ? options.slideDetection : false,
    };
    const request: GetUploadUrlRequest =
      selection.kind === 'video'
        ? { kind: 'video', isVideo: true, mimeType: selection.mimeType, targetFrameRate: 1 / options.interval, duration: media.duration as number, fileName: firstFile.name, size: firstFile.size || undefined, sortPreference: null, ...common }
        : {
            kind: 'photos',
            isVideo: false,
            mimeType: selection.mimeType,
            files: files.map((f) => ({ name: f.name, type: selection.mimeType, lastModified: Math.max(0, Math.round(f.lastModified)), size: f.size || undefined })),
            timestamps: media.timestamps ?? files.map((f) => Math.max(0, Math.round(f.lastModified))),
            sortPreference: options.sortPreference,
            ...common,
          };
    void transfer.start(request, files, selection.mimeType);
  };

  /** A video by link: the server fetches it, measures it and charges the frames read (the hold is for the most it can have). */
  const submitLink = (chosen: ServerEngine) => {
    const blocker = uploadBlocker({ uploadName, credits });
    if (blocker) {
      dispatch(toastShown(blocker, 'error'));
      return;
    }
    const captions = options.mediaContent === 'captions';
    void transfer.start(
      {
        kind: 'link',
        isVideo: true,
        youtubeLink: videoLink.trim(),
        uploadName: uploadName.trim(),
        ocrType: chosen,
        mediaContent: options.mediaContent,
        originalLanguage: options.originalLanguage,
        targetLanguage: captions ? options.targetLanguage : null,
        slideDetection: options.mediaContent === 'presentation' ? options.slideDetection : false,
        targetFrameRate: 1 / options.interval,
      },
      [],
      'video/mp4',
    );
  };

  const onCancel = () => {
    if (window.confirm('Stop this upload? The files sent so far will be discarded.')) transfer.cancel();
  };

  const busy = transfer.running;
  const canUpload = !busy && engine !== null && (byLink || (selection !== null && cost !== null && !cost.tooManyFrames));
  // A chosen file is ready only once the browser could read it: a problem (not a video, say) is not "Ready to upload".
  const fileStatus = busy ? 'Uploading' : !selection ? 'Select files to upload' : media.problem ? 'Cannot upload this file' : 'Ready to upload';
  const pending = byLink
    ? 'The video is fetched from its link and measured on our servers: you pay for the frames read, at most 360.'
    : media.problem ?? (media.reading ? (selection?.kind === 'video' ? 'Reading the video’s length…' : 'Reading the photos’ capture times…') : 'Choose a video or photos to see the frame count and the credits it costs.');
  const note =
    selection?.kind === 'photos' && media.timestamps
      ? `${files.length} photos taken over ${formatDuration(photoSpanSeconds(media.timestamps))}.`
      : selection?.kind === 'video' && media.duration !== null
        ? detectingSlides
          ? `${formatDuration(media.duration)} of video, looked at every ${SLIDE_SAMPLE_SECONDS} s for new slides.`
          : `${formatDuration(media.duration)} of video, one frame every ${formatDuration(options.interval)}.`
        : undefined;

  return (
    <form className="upload-step" onSubmit={onSubmit} aria-label="Upload form" noValidate>
      <div className="upload-step__main stack">
        <div className="field">
          <label htmlFor={`${ids}-engine`}>Engine</label>
          <select
            id={`${ids}-engine`}
            className="select"
            value={engine ?? ''}
            disabled={busy || engines.length === 0}
            onChange={(e) => setChosenEngine(e.target.value as ServerEngine)}
            aria-describedby={`${ids}-engine-hint`}
          >
            {engines.length === 0 && <option value="">{config.isError ? 'Engines unavailable' : 'Loading engines…'}</option>}
            {engines.map((e) => (
              <option key={e.engine} value={e.engine} disabled={!e.available}>
                {ENGINE_LABELS[e.engine as ServerEngine]} — {rateText(e.creditsPerFrame, e.framesPerCredit)}{e.available ? '' : ' (unavailable)'}
              </option>
            ))}
          </select>
          <div id={`${ids}-engine-hint`} className="field__hint">
            {config.isError && <p className="field__error">The engines could not be loaded: {errorMessage(config.error)}</p>}
            {engines
              .filter((e) => !e.available)
              .map((e) => (
                <p key={e.engine}>
                  {ENGINE_LABELS[e.engine as ServerEngine]} is unavailable: {e.reason ?? 'not offered right now.'}
                </p>
              ))}
            <p>
              To read text on your own computer instead, use a <Link to="/local">Local Upload</Link>.
            </p>
          </div>
        </div>

        <div className="field">
          <label htmlFor={`${ids}-name`}>Upload name</label>
          <input id={`${ids}-name`} className="input" value={uploadName} maxLength={200} disabled={busy} onChange={(e) => setUploadName(e.target.value)} placeholder="e.g. Charging session, 12 May" />
        </div>

        <fieldset className="stack--sm">
          <legend>Media</legend>
          <div className="field">
            <label htmlFor={`${ids}-files`}>Media files</label>
            <input
              id={`${ids}-files`}
              className="input upload-step__files"
              type="file"
              multiple
              accept=".mp4,.mov,.png,.jpg,.jpeg,video/mp4,video/quicktime,image/png,image/jpeg"
              disabled={busy}
              onChange={onFiles}
              aria-describedby={`${ids}-files-hint`}
            />
            <p id={`${ids}-files-hint`} className="field__hint">
              One .mp4 or .mov video, or several .png or .jpeg photos of the same type.
            </p>
          </div>
          <p className="upload-step__status" aria-live="polite">
            <strong>{fileStatus}</strong>
            {selection && (
              <span className="muted">
                {' '}
                · {selection.kind === 'video' ? firstFile?.name : `${files.length} ${files.length === 1 ? 'photo' : 'photos'}`} ({formatBytes(files.reduce((s, f) => s + f.size, 0))})
              </span>
            )}
          </p>
          {media.problem && (
            <p className="alert alert--danger" role="alert">
              {media.problem}
            </p>
          )}
          <div className="field">
            <label htmlFor={`${ids}-link`}>Video link</label>
            <input id={`${ids}-link`} className="input" type="url" inputMode="url" value={videoLink} disabled={busy} onChange={(e) => setVideoLink(e.target.value)} placeholder="https://www.youtube.com/watch?v=…" />
          </div>
          {linkId && selection === null && (
            <p className="alert alert--info" role="status">
              The video is fetched from this link when you upload. Public or unlisted videos only, one at a time.
            </p>
          )}
        </fieldset>

        <MediaOptions value={options} onChange={onOptions} media={selection?.kind ?? (linkId ? 'video' : null)} disabled={busy} />
      </div>

      <aside className="upload-step__side stack">
        <CostPanel quote={cost} pending={pending} note={note} perSlide={detectingSlides} purchase={<PurchaseCredits />} />
        {transfer.phase !== 'idle' && (
          <ProgressBar
            label="Upload progress"
            value={transfer.progress.total ? (transfer.progress.sent / transfer.progress.total) * 100 : 0}
            detail={
              transfer.phase === 'requesting'
                ? 'Preparing…'
                : transfer.phase === 'completing'
                  ? 'Checking the files…'
                  : `${formatBytes(transfer.progress.sent)} of ${formatBytes(transfer.progress.total)}`
            }
          />
        )}
        <div className="cluster">
          <button type="submit" className="btn btn--primary btn--lg" disabled={!canUpload}>
            Upload
          </button>
          {busy && (
            <button type="button" className="btn btn--ghost" onClick={onCancel}>
              Cancel upload
            </button>
          )}
        </div>
      </aside>
    </form>
  );
}
