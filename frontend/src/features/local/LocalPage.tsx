import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { formatBytes, isVideoFileName } from '@frametext/contracts/rules';
import { formatClock } from '@frametext/text-analysis';
import { PurchaseCreditsModal } from '../../components/credits/PurchaseCreditsModal';
import { ProgressBar } from '../../components/ProgressBar';
import { errorCode, errorMessage } from '../../lib/api';
import { useGetProfileQuery } from '../../lib/credits/api';
import { downloadFile } from '../../lib/download';
import { newLocalId, saveLocalRecord } from '../../lib/localRecords';
import { useAppDispatch } from '../../lib/store';
import { toastShown } from '../../lib/ui';
import { useLogLocalUploadMutation } from './api';
import { FrameList } from './components/FrameList';
import { FramePreview } from './components/FramePreview';
import type { ScannedFrame } from './engine/scan';
import { useLocalScan } from './hooks/useLocalScan';
import {
  DEFAULT_SCAN_INTERVAL_INDEX,
  DOWNSCALE_MAX,
  DOWNSCALE_MIN,
  DOWNSCALE_STEP,
  LARGE_FRAME_WARNING,
  SCAN_INTERVALS,
  TEXT_FILE_NAME,
  frameTimes,
  framesText,
  intervalText,
  plannedFrames,
  progressPercent,
  requiredCredits,
  runBlocker,
} from './rules';
import './local.css';

interface Chosen {
  file: File;
  url: string;
}
interface VideoInfo {
  duration: number;
  width: number;
  height: number;
}
/** What a scan was run with: Save and Analyze logs these, whatever the sliders say afterwards. */
interface Run {
  id: string;
  fileName: string;
  duration: number;
  interval: number;
}

const ONE_VIDEO = 'Please upload one .mov or .mp4 at a time.';

/** "Done: 20 frames read", and how many of them the video could not be moved to. */
function doneText(frames: readonly ScannedFrame[]): string {
  const missed = frames.filter((f) => f.missed).length;
  return `Done: ${frames.length} frames read${missed > 0 ? `; ${missed} could not be reached in the video (marked Not read)` : ''}`;
}

/** The chosen file as people check it: name and size, then duration and size in pixels once the video says. */
function chosenText(file: File, info: VideoInfo | null): string {
  const parts = [file.name, formatBytes(file.size)];
  if (info) parts.push(formatClock(info.duration), `${info.width}×${info.height}`);
  return parts.join(' · ');
}

/**
 * /local: text read from a video on this computer. Nothing of the video leaves the browser; Save and Analyze keeps
 * the frames in the browser's database and tells the server only that the run happened (and charges for it).
 */
export default function LocalPage() {
  const ids = { file: useId(), interval: useId(), scale: useId() };
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const profile = useGetProfileQuery();
  const [logLocalUpload, logState] = useLogLocalUploadMutation();
  const videoRef = useRef<HTMLVideoElement>(null);
  const scan = useLocalScan(videoRef);

  const [chosen, setChosen] = useState<Chosen | null>(null);
  const [info, setInfo] = useState<VideoInfo | null>(null);
  const [videoError, setVideoError] = useState<string | null>(null);
  const [intervalIndex, setIntervalIndex] = useState(DEFAULT_SCAN_INTERVAL_INDEX);
  const [scalePercent, setScalePercent] = useState(DOWNSCALE_MAX);
  const [run, setRun] = useState<Run | null>(null);
  const [current, setCurrent] = useState(0);
  const [purchasing, setPurchasing] = useState(false);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);

  // The chosen file's address lives as long as it is chosen.
  useEffect(() => (chosen ? () => URL.revokeObjectURL(chosen.url) : undefined), [chosen]);

  const interval = SCAN_INTERVALS[intervalIndex]!;
  const frames = plannedFrames(info?.duration ?? null, interval);
  const cost = requiredCredits(frames);
  const credits = profile.data?.credits ?? null;
  const scanning = scan.state.phase === 'scanning';
  const blocker = runBlocker({ hasFile: chosen !== null && info !== null, frames, scanning, credits });
  const short = credits !== null && frames > 0 && credits < cost;
  const read = scan.state.phase === 'idle' ? [] : scan.state.frames;
  const finished = scan.state.phase === 'done';

  function onFile(e: ChangeEvent<HTMLInputElement>) {
    const files = [...(e.target.files ?? [])];
    if (files.length === 0) return;
    if (files.length > 1 || !isVideoFileName(files[0]!.name)) {
      // Only a refused choice is cleared: the input keeps showing the file it holds.
      e.target.value = '';
      dispatch(toastShown(ONE_VIDEO, 'error'));
      return;
    }
    scan.reset();
    setRun(null);
    setInfo(null);
    setVideoError(null);
    setSaveError(null);
    setCurrent(0);
    setChosen({ file: files[0]!, url: URL.createObjectURL(files[0]!) });
  }

  function onMetadata() {
    const video = videoRef.current;
    if (!video) return;
    if (!video.videoWidth || !video.videoHeight) setVideoError('Video has no dimensions.');
    setInfo({ duration: video.duration, width: video.videoWidth, height: video.videoHeight });
  }

  async function onRun() {
    if (blocker || !chosen || !info) return;
    const next: Run = { id: newLocalId(), fileName: chosen.file.name, duration: info.duration, interval };
    setRun(next);
    setSaveError(null);
    setCurrent(0);
    await scan.start(frameTimes(info.duration, interval), scalePercent / 100);
  }

  async function onSave() {
    if (!run || scan.state.phase !== 'done') return;
    setSaving(true);
    setSaveError(null);
    try {
      await logLocalUpload({
        uploadID: run.id,
        uploadName: run.fileName,
        mediaContent: 'numerical',
        duration: run.duration,
        targetFrameRate: 1 / run.interval,
        fileName: run.fileName,
        ocrType: 'local',
      }).unwrap();
    } catch (error) {
      setSaving(false);
      if ((error as { status?: unknown }).status === 402 || errorCode(error) === 'billing/insufficient-credits') setPurchasing(true);
      setSaveError(errorMessage(error));
      return;
    }
    try {
      await saveLocalRecord({
        id: run.id,
        data: scan.state.frames,
        uploadedAt: new Date().toISOString(),
        duration: run.duration,
        targetFrameRate: 1 / run.interval,
        fileName: run.fileName,
        _addedAt: Date.now(),
      });
    } catch (error) {
      setSaving(false);
      // Logged and charged already: saving again uses the same id, so it is not charged twice.
      setSaveError(`The results could not be saved in this browser: ${errorMessage(error)}`);
      return;
    }
    navigate(`/view-upload/${encodeURIComponent(run.id)}`, { state: { mediaContent: 'numerical' } });
  }

  const percent = scan.state.phase === 'scanning' ? progressPercent(scan.state.done, scan.state.total) : finished ? 100 : 0;

  return (
    <div className="page container stack local-page">
      <header className="stack--sm">
        <h1>Local OCR</h1>
        <p className="lead">Read the text in a video on your own computer. The video is never uploaded: only the fact that you ran a scan is recorded, at 20 frames per credit.</p>
      </header>

      <section className="card stack" aria-label="Video and settings">
        <div className="field">
          <label className="field__label" htmlFor={ids.file}>
            Choose a video
          </label>
          <input
            id={ids.file}
            className="input"
            type="file"
            accept=".mp4,.mov,video/mp4,video/quicktime"
            aria-describedby={`${ids.file}-hint`}
            onChange={onFile}
            disabled={scanning}
          />
          {chosen ? (
            <p id={`${ids.file}-hint`} className="field__hint" data-testid="video-info">
              Chosen: {chosenText(chosen.file, info)}
            </p>
          ) : (
            <p id={`${ids.file}-hint`} className="field__hint">
              An .mp4 or .mov file.
            </p>
          )}
        </div>

        {chosen && (
          <div className="local-video">
            <video ref={videoRef} src={chosen.url} muted playsInline preload="auto" controls={!scanning} onLoadedMetadata={onMetadata} onError={() => setVideoError('This browser cannot play this video.')} />
          </div>
        )}
        {videoError && (
          <p className="alert alert--danger" role="alert">
            {videoError}
          </p>
        )}

        <div className="field">
          <label className="field__label" htmlFor={ids.interval}>
            Scan interval: <output htmlFor={ids.interval}>{intervalText(interval)}</output>
          </label>
          <input
            id={ids.interval}
            type="range"
            min={0}
            max={SCAN_INTERVALS.length - 1}
            step={1}
            value={intervalIndex}
            aria-valuetext={intervalText(interval)}
            disabled={scanning}
            onChange={(e) => setIntervalIndex(Number(e.target.value))}
          />
        </div>
        <div className="field">
          <label className="field__label" htmlFor={ids.scale}>
            Downscale: <output htmlFor={ids.scale}>{scalePercent}%</output>
          </label>
          <input
            id={ids.scale}
            type="range"
            min={DOWNSCALE_MIN}
            max={DOWNSCALE_MAX}
            step={DOWNSCALE_STEP}
            value={scalePercent}
            aria-valuetext={`${scalePercent}%`}
            aria-describedby={`${ids.scale}-hint`}
            disabled={scanning}
            onChange={(e) => setScalePercent(Number(e.target.value))}
          />
          <p id={`${ids.scale}-hint`} className="field__hint">
            Frames are read at this share of the video&apos;s size{info ? `: ${Math.round((info.width * scalePercent) / 100)}×${Math.round((info.height * scalePercent) / 100)}` : ''}. Smaller reads faster.
          </p>
        </div>

        {info && (
          <p data-testid="local-cost">
            {frames === 1 ? '1 frame' : `${frames} frames`} · {cost === 1 ? '1 credit' : `${cost} credits`}
            {credits !== null && <span className="muted"> (you have {credits})</span>}
          </p>
        )}
        {blocker === LARGE_FRAME_WARNING && (
          <p className="alert alert--danger" role="alert">
            {LARGE_FRAME_WARNING}
          </p>
        )}
        {short && blocker !== LARGE_FRAME_WARNING && (
          <div className="alert alert--danger cluster cluster--between" role="alert">
            <span>{blocker}</span>
            <button type="button" className="btn btn--secondary btn--sm" onClick={() => setPurchasing(true)}>
              Purchase Credits
            </button>
          </div>
        )}

        <div className="cluster">
          <button type="button" className="btn btn--primary" disabled={blocker !== null} title={blocker ?? undefined} onClick={() => void onRun()}>
            {scanning ? 'Scanning…' : 'Run OCR'}
          </button>
          <button type="button" className="btn btn--secondary" disabled={read.length === 0 || scanning} onClick={() => downloadFile(TEXT_FILE_NAME, framesText(read))}>
            Download Text
          </button>
          <button type="button" className="btn btn--secondary" disabled={!finished || saving || logState.isLoading} onClick={() => void onSave()}>
            {saving ? 'Saving…' : 'Save and Analyze'}
          </button>
        </div>

        {(scanning || finished) && (
          <div aria-live="polite">
            <ProgressBar label={scanning ? 'Scanning...' : 'Scanned'} value={percent} detail={scan.state.phase === 'scanning' ? `${percent}% · ${scan.state.done} of ${scan.state.total} frames` : doneText(read)} />
            {scan.state.phase === 'done' && read.length > 0 && (
              <p className="muted small" data-testid="scan-speed">
                {(scan.state.readSeconds / read.length).toFixed(2)} s per frame ({scan.state.seconds.toFixed(1)} s in all, with the OCR engine&apos;s start)
              </p>
            )}
          </div>
        )}
        {scan.state.phase === 'failed' && (
          <p className="alert alert--danger" role="alert">
            {scan.state.message}
          </p>
        )}
        {saveError && (
          <p className="alert alert--danger" role="alert">
            {saveError}
          </p>
        )}
      </section>

      {read.length > 0 && (
        <div className="local-results">
          <FramePreview frames={read} index={Math.min(current, read.length - 1)} onIndex={setCurrent} />
          <FrameList frames={read} index={Math.min(current, read.length - 1)} onIndex={setCurrent} />
        </div>
      )}

      {purchasing && <PurchaseCreditsModal onClose={() => setPurchasing(false)} />}
    </div>
  );
}
