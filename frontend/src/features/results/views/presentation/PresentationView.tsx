import { useCallback, useMemo, useState } from 'react';
import { earlierBuilds, frameLines, keptSlidesSelection, overlapWithPrevious, presentationFileName, presentationWork, restorePresentationWork, selectedSlidesFileName, selectedSlidesText, similarToPrevious, SLIDE_SIMILARITY_DEFAULT } from '@frametext/text-analysis';
import { useAppDispatch } from '../../../../lib/store';
import { toastShown } from '../../../../lib/ui';
import { FrameStage } from '../../components/FrameStage';
import type { ViewProps } from '../../components/ResultsShell';
import { frameLabel } from '../../model';
import { useReportWork } from '../../work/useKeptWork';
import { FrameList, type FrameRowData } from './FrameList';
import { SimilarityFilter } from './SimilarityFilter';
import { TextResultModal } from './TextResultModal';
import './presentation.css';

interface Shown {
  title: string;
  text: string;
  fileName: string;
}

/**
 * The Presentation view: every frame as a row to keep or drop, a similarity filter that drops frames repeating
 * the one before, the current frame's lines, and the kept frames' text to download or copy. A slide that builds
 * up bullet by bullet is one frame per build; each build the next frame builds on starts unselected and marked,
 * so the slide is kept once, whole.
 */
export default function PresentationView({ view, work }: ViewProps) {
  const dispatch = useAppDispatch();
  const count = view.frames.length;
  // Per-upload work, done once: each frame's lines, its row, which frames are earlier builds of the next, and
  // each frame's word overlap with the frame before.
  const lines = useMemo(() => view.frames.map(frameLines), [view]);
  const texts = useMemo(() => lines.map((l) => l.join('\n')), [lines]);
  const builds = useMemo(() => earlierBuilds(texts), [texts]);
  // The person's ticks and threshold as they left them (the shell reads them before the view is shown).
  const [restored] = useState(() => restorePresentationWork(work?.initial, view.frames.length));
  const [selected, setSelected] = useState<boolean[]>(() => keptSlidesSelection(view.frames, work?.initial));
  const [threshold, setThreshold] = useState(restored?.threshold ?? SLIDE_SIMILARITY_DEFAULT);
  useReportWork(
    work,
    useMemo(() => presentationWork(selected, threshold), [selected, threshold]),
  );
  const [current, setCurrent] = useState(0);
  const [shown, setShown] = useState<Shown | null>(null);
  const [fetching, setFetching] = useState(false);

  const rows = useMemo<FrameRowData[]>(() => view.frames.map((f, i) => ({ index: i, label: frameLabel(view, i), thumbUrl: f.imageUrl, snippet: lines[i]?.[0] ?? '' })), [view, lines]);
  const overlaps = useMemo(() => overlapWithPrevious(texts), [texts]);
  const similar = useMemo(() => similarToPrevious(overlaps, threshold), [overlaps, threshold]);
  const similarCount = useMemo(() => similar.filter(Boolean).length, [similar]);
  const selectedCount = useMemo(() => selected.filter(Boolean).length, [selected]);

  const toggle = useCallback((i: number) => setSelected((prev) => prev.map((on, j) => (j === i ? !on : on))), []);
  const open = useCallback((i: number) => setCurrent(i), []);
  const buildCount = useMemo(() => builds.filter(Boolean).length, [builds]);
  const applyFilter = () => setSelected(similar.map((s, i) => !s && !builds[i]));

  const showSelected = () => setShown({ title: 'Selected slides', text: selectedSlidesText(view, selected), fileName: selectedSlidesFileName(view.uploadName) });
  const showPresentationFile = async () => {
    if (!view.resultsUrl) return;
    setFetching(true);
    try {
      const response = await fetch(view.resultsUrl);
      if (!response.ok) throw new Error(`results file answered ${response.status}`);
      setShown({ title: 'Presentation text', text: await response.text(), fileName: presentationFileName(view.uploadName) });
    } catch (error) {
      console.warn('presentation text', error);
      dispatch(toastShown('Results not yet available', 'error'));
    } finally {
      setFetching(false);
    }
  };

  const frame = view.frames[current]!;
  const currentLines = lines[current] ?? [];
  const none = selectedCount === 0;

  return (
    <div className="slides stack">
      <div className="slides-toolbar">
        <SimilarityFilter threshold={threshold} onThreshold={setThreshold} similarCount={similarCount} onApply={applyFilter} />
        <div className="card slides-export">
          <p className="slides-export__count" aria-live="polite">
            <strong>{selectedCount}</strong> of {count} frames selected
          </p>
          <div className="cluster">
            <button type="button" className="btn btn--ghost btn--sm" onClick={() => setSelected(view.frames.map(() => true))}>
              Select all
            </button>
            <button type="button" className="btn btn--ghost btn--sm" onClick={() => setSelected(view.frames.map(() => false))}>
              Select none
            </button>
          </div>
          <div className="cluster">
            <button type="button" className="btn btn--primary btn--sm" disabled={none} onClick={showSelected}>
              Export selected text
            </button>
            {view.resultsUrl && (
              <button type="button" className="btn btn--secondary btn--sm" disabled={none || fetching} onClick={() => void showPresentationFile()}>
                {fetching ? 'Loading…' : 'Full results file'}
              </button>
            )}
          </div>
          {buildCount > 0 && (
            <p className="field__hint">
              {buildCount === 1 ? '1 frame is an earlier build' : `${buildCount} frames are earlier builds`} of the slide after it, unselected so that each
              slide is kept once, with all its bullets.
            </p>
          )}
          {none && <p className="field__hint">Select at least one frame to export.</p>}
        </div>
      </div>

      <div className="results__main">
        <FrameList rows={rows} selected={selected} similar={similar} builds={builds} current={current} onToggle={toggle} onOpen={open} />
        <section className="card slides-panel" aria-labelledby="slides-panel-title">
          <h2 id="slides-panel-title" className="slides-panel__title">
            {frameLabel(view, current)}
          </h2>
          <FrameStage frame={frame} label={frameLabel(view, current)} />
          {currentLines.length > 0 ? (
            <ol className="slides-panel__lines" aria-label="Text of this frame">
              {currentLines.map((line, i) => (
                <li key={i}>{line}</li>
              ))}
            </ol>
          ) : (
            <p className="muted">No text found on this frame.</p>
          )}
        </section>
      </div>

      {shown && <TextResultModal {...shown} onClose={() => setShown(null)} />}
    </div>
  );
}
