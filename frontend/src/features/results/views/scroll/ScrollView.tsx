import { useEffect, useMemo, useRef, useState } from 'react';
import {
  applyListEdits,
  deduplicateItems,
  DEFAULT_SCROLL_SETTINGS,
  detectionSettingsOf,
  lockTemplate,
  NO_SCROLL_EDITS,
  restoreScrollWork,
  scrollWork,
  withRowEdit,
  type DetectionSettings,
  type ListItem,
  type LockedTemplate,
  type RowEdit,
  type Rect,
  type ScrollEdits,
  type ScrollSettings,
} from '@frametext/text-analysis';
import { ProgressBar } from '../../../../components/ProgressBar';
import { FrameSlider } from '../../components/FrameSlider';
import { FrameStage } from '../../components/FrameStage';
import type { ViewProps } from '../../components/ResultsShell';
import { frameLabel } from '../../model';
import { useReportWork } from '../../work/useKeptWork';
import { frameWords } from './detection';
import { foundMessage, ScrollResults } from './ScrollResults';
import { ScrollSettingsPanel } from './ScrollSettingsPanel';
import { DEFAULT_TEMPLATE_BOX } from './templateBox';
import { TemplateOverlay } from './TemplateOverlay';
import { useFrameSpace } from './useFrameSpace';
import { useScrollDetection } from './useScrollDetection';
import './scroll.css';

const sameDetection = (a: ScrollSettings, b: ScrollSettings) =>
  a.linePositionTolerance === b.linePositionTolerance && a.lineCountTolerance === b.lineCountTolerance && a.minSimilarity === b.minSimilarity;

/**
 * The Scroll view: the user boxes one item of a scrolled list on one frame (the purple template), locks it, and
 * Detect Items finds every item laid out the same way on every frame; duplicates (the same item seen on several
 * frames while the list scrolls) can be ignored to get the unique list, exported as CSV or text.
 */
export default function ScrollView({ view, work }: ViewProps) {
  // The person's template and settings as they left them (the shell reads them before the view is shown).
  const [restored] = useState(() => restoreScrollWork(work?.initial, view.frames));
  const [index, setIndex] = useState(() => restored?.locked?.frameIndex ?? 0);
  const frame = view.frames[index]!;
  const space = useFrameSpace(frame);
  const [box, setBox] = useState<Rect>(() => restored?.box ?? DEFAULT_TEMPLATE_BOX);
  const [locked, setLocked] = useState<LockedTemplate | null>(() => restored?.locked ?? null);
  const [lockError, setLockError] = useState(false);
  const [settings, setSettings] = useState<ScrollSettings>(() => restored?.settings ?? { ...DEFAULT_SCROLL_SETTINGS });
  const [ignoreDuplicates, setIgnoreDuplicates] = useState(() => restored?.ignoreDuplicates ?? true);
  // The detection settings of the results shown (or being found), kept so they are found again on open.
  const [detected, setDetected] = useState<DetectionSettings | null>(() => restored?.detected ?? null);
  // The person's corrections to the list, and the ones before each change (for Undo; not kept).
  const [edits, setEdits] = useState<ScrollEdits>(() => restored?.edits ?? NO_SCROLL_EDITS);
  const [earlierEdits, setEarlierEdits] = useState<ScrollEdits[]>([]);
  useReportWork(
    work,
    useMemo(() => scrollWork(box, locked, settings, ignoreDuplicates, detected, edits), [box, locked, settings, ignoreDuplicates, detected, edits]),
  );
  const [selected, setSelected] = useState<ListItem | null>(null);
  const { state, start, clear } = useScrollDetection();
  // Kept results: Detect Items runs again, as it last ran, when the view opens.
  useEffect(() => {
    if (restored?.locked && restored.detected) void start(view.frames, restored.locked, { ...restored.settings, ...restored.detected });
  }, [restored, start, view.frames]);

  const matches = state.status === 'done' ? state.matches : null;
  const detectedList = useMemo(() => (matches ? deduplicateItems(matches, settings.duplicateThreshold) : null), [matches, settings.duplicateThreshold]);
  const result = useMemo(() => (detectedList ? applyListEdits(detectedList, edits) : null), [detectedList, edits]);
  // After Detect Items, the list is brought into view and focus moves to its heading.
  const resultsHeading = useRef<HTMLHeadingElement>(null);
  const revealResults = useRef(false);
  useEffect(() => {
    if (state.status !== 'done' || !revealResults.current) return;
    revealResults.current = false;
    resultsHeading.current?.focus();
    resultsHeading.current?.scrollIntoView?.({ block: 'start' });
  }, [state]);
  // Every item read on this frame, whichever reading its row keeps.
  const itemsHere = useMemo(() => (result ? result.all.filter((item) => item.frameIndex === index) : []), [result, index]);
  const label = (i: number) => frameLabel(view, i);

  const lock = () => {
    if (!space) return;
    const next = lockTemplate(frame, box, space);
    setLockError(!next);
    setLocked(next);
  };
  const forgetEdits = () => {
    setEdits(NO_SCROLL_EDITS);
    setEarlierEdits([]);
  };
  const unlock = () => {
    setLocked(null);
    setSelected(null);
    setDetected(null);
    forgetEdits();
    clear();
  };
  const clearResults = () => {
    setSelected(null);
    setDetected(null);
    forgetEdits();
    clear();
  };
  // The corrections stay: they name rows by their first sighting, found again when nothing that matters changed.
  const detect = () => {
    if (!locked) return;
    setSelected(null);
    setDetected(detectionSettingsOf(settings));
    revealResults.current = true;
    void start(view.frames, locked, settings);
  };
  const correct = (edit: RowEdit) => {
    setEarlierEdits((earlier) => [...earlier, edits]);
    setEdits(withRowEdit(edits, edit, result?.unique ?? []));
  };
  const undo = () => {
    setEdits(earlierEdits.at(-1) ?? NO_SCROLL_EDITS);
    setEarlierEdits((earlier) => earlier.slice(0, -1));
  };
  const show = (item: ListItem) => {
    setSelected(item);
    setIndex(item.frameIndex);
  };

  const running = state.status === 'running';
  const outdated = state.status === 'done' && !sameDetection(state.settings, settings);

  return (
    <div className="scroll-view stack">
      <div className="results__main">
        <div className="stack">
          <FrameStage
            frame={frame}
            label={label(index)}
            interactive
            overlay={(s) => <TemplateOverlay space={s} box={locked?.box ?? box} locked={locked !== null} onBox={setBox} words={frameWords(frame)} items={itemsHere} selected={selected} />}
          />
          <FrameSlider count={view.frames.length} index={index} onIndex={setIndex} label={label} />
        </div>

        <div className="stack">
          <section className="card scroll-card" aria-labelledby="scroll-template-title">
            <h2 id="scroll-template-title" className="scroll-card__title">
              Template
            </h2>
            {locked ? (
              <p className="scroll-template-summary">
                Locked on {label(locked.frameIndex)}: {locked.template.lines.length === 1 ? '1 line' : `${locked.template.lines.length} lines`} (
                <span className="scroll-template-summary__text">{locked.template.lines.map((l) => l.text).join(' / ')}</span>).
              </p>
            ) : (
              <p className="muted small">
                Drag the purple box onto one item of the list, or draw a new box around it; pull its corners to resize it. With the keyboard, focus the box: the arrow
                keys move it, Shift and the arrow keys resize it. Then lock it.
              </p>
            )}
            {lockError && !locked && (
              <p className="alert alert--danger" role="alert">
                The box holds no text on this frame. Move it over one list item and lock it again.
              </p>
            )}
            <div className="cluster">
              {locked ? (
                <button type="button" className="btn btn--secondary btn--sm" onClick={unlock}>
                  Unlock Template
                </button>
              ) : (
                <button type="button" className="btn btn--secondary btn--sm scroll-lock" onClick={lock} disabled={!space}>
                  Lock Template
                </button>
              )}
              <button type="button" className="btn btn--primary btn--sm" onClick={detect} disabled={!locked || running}>
                Detect Items
              </button>
              <button type="button" className="btn btn--ghost btn--sm" onClick={clearResults} disabled={state.status === 'idle'}>
                Clear Results
              </button>
            </div>
            {!locked && <p className="field__hint">Detect Items works once the template is locked.</p>}
            <p role="status" className="scroll-found">
              {result && state.status === 'done' ? foundMessage(result.unique.length) : ''}
            </p>
            {running && <ProgressBar label="Detecting items" value={state.done} max={state.total} detail={`${state.done} of ${state.total} frames`} />}
            {outdated && <p className="alert alert--info">The detection settings changed. Press Detect Items to apply them.</p>}
          </section>

          <ScrollSettingsPanel settings={settings} onSettings={setSettings} ignoreDuplicates={ignoreDuplicates} onIgnoreDuplicates={setIgnoreDuplicates} />
        </div>
      </div>

      {result && state.status === 'done' && (
        <ScrollResults
          view={view}
          result={result}
          ignoreDuplicates={ignoreDuplicates}
          framesScanned={state.framesScanned}
          onShow={show}
          headingRef={resultsHeading}
          onEdit={correct}
          onUndo={earlierEdits.length > 0 ? undo : null}
        />
      )}
    </div>
  );
}

