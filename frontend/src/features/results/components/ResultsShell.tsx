import { Suspense, lazy, useEffect, useMemo, useState, type ComponentType, type LazyExoticComponent } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { foundAlmostNoText } from '@frametext/contracts/rules';
import { Modal } from '../../../components/Modal';
import { NO_TEXT_TITLE, NoTextSupportLine, WhatToTry, textFoundSentence } from '../../../components/NoTextFound';
import { Spinner } from '../../../components/Spinner';
import { DEFAULT_VIEW, textFoundInView, type ResultsView, type ViewName } from '../model';
import { KeptWorkGate } from '../work/KeptWorkGate';
import type { KeptWork } from '../work/useKeptWork';
import { ViewHelp } from './ViewHelp';
import '../results.css';

export interface ViewProps {
  view: ResultsView;
  /** The person's kept work in this view: where it starts from, and where its changes go (absent: nothing kept). */
  work?: KeptWork;
}

/** The four views, each its own chunk; the shell shows one at a time. */
const VIEW_CHUNKS: Record<ViewName, () => Promise<{ default: ComponentType<ViewProps> }>> = {
  presentation: () => import('../views/presentation/PresentationView'),
  numerical: () => import('../views/numerical/NumericalView'),
  region: () => import('../views/region/RegionView'),
  scroll: () => import('../views/scroll/ScrollView'),
};
const VIEWS: Record<ViewName, { label: string; Component: LazyExoticComponent<ComponentType<ViewProps>> }> = {
  presentation: { label: 'Presentation', Component: lazy(VIEW_CHUNKS.presentation) },
  numerical: { label: 'Numerical', Component: lazy(VIEW_CHUNKS.numerical) },
  region: { label: 'Region', Component: lazy(VIEW_CHUNKS.region) },
  scroll: { label: 'Scroll', Component: lazy(VIEW_CHUNKS.scroll) },
};
const ORDER: ViewName[] = ['presentation', 'numerical', 'region', 'scroll'];
const isViewName = (value: string | null): value is ViewName => value !== null && (ORDER as string[]).includes(value);

interface Props {
  view: ResultsView;
  /** Where the back link and the no-text modal's button go. */
  back: { to: string; label: string };
  /** Show only this view, without tabs (the older /view-upload-numerical screen). */
  only?: ViewName;
}

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <div className="card results-detail">
      <dt className="muted small">{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/**
 * The results page around the views: back link, details cards, the "Which view should I use?" help, the tabs
 * (kept in the address as ?view=, so a reload or a shared link opens the same one), and the no-text modal when
 * almost no text was read (foundAlmostNoText), with a line that reopens it once closed.
 */
export function ResultsShell({ view, back, only }: Props) {
  const navigate = useNavigate();
  const location = useLocation();
  const [params, setParams] = useSearchParams();
  const asked = params.get('view');
  const current: ViewName = only ?? (isViewName(asked) ? asked : DEFAULT_VIEW[view.mediaContent]);
  const [helpOpen, setHelpOpen] = useState(false);
  const found = useMemo(() => textFoundInView(view), [view]);
  const almostNoText = foundAlmostNoText(found);
  const [noTextOpen, setNoTextOpen] = useState(almostNoText);
  const { Component } = VIEWS[current];
  // The view's code loads while its kept work does (the view waits for both).
  useEffect(() => void VIEW_CHUNKS[current]().catch(() => undefined), [current]);

  const choose = (name: ViewName) =>
    setParams(
      (prev) => {
        const next = new URLSearchParams(prev);
        next.set('view', name);
        return next;
      },
      { replace: true, state: location.state },
    );

  return (
    <div className="results stack--lg">
      <Link className="results__back" to={back.to}>
        ← {back.label}
      </Link>
      <div className="results__heading">
        <h1 className="results__title">{view.uploadName}</h1>
        <button type="button" className="btn btn--ghost btn--sm" onClick={() => setHelpOpen(true)}>
          Which view should I use?
        </button>
      </div>

      <dl className="results-details">
        <Detail label="Upload name" value={view.uploadName} />
        <Detail label="Uploaded" value={view.uploadedAt ? view.uploadedAt.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }) : 'Unknown'} />
        <Detail label="Processing type" value={view.processingType} />
        <Detail label="Format" value={view.format} />
        <Detail label="Frames" value={String(view.frames.length)} />
      </dl>

      {almostNoText && !noTextOpen && (
        <p className="alert alert--info" role="status">
          {textFoundSentence(found)}{' '}
          <button type="button" className="btn btn--ghost btn--sm" onClick={() => setNoTextOpen(true)}>
            What to try
          </button>
        </p>
      )}

      {!only && (
        <div className="results-tabs" role="tablist" aria-label="Results views">
          {ORDER.map((name) => (
            <button
              key={name}
              type="button"
              role="tab"
              id={`results-tab-${name}`}
              aria-selected={current === name}
              aria-controls="results-panel"
              tabIndex={current === name ? 0 : -1}
              className="results-tabs__tab"
              onClick={() => choose(name)}
              onKeyDown={(e) => {
                const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
                if (!step) return;
                e.preventDefault();
                const next = ORDER[(ORDER.indexOf(current) + step + ORDER.length) % ORDER.length]!;
                choose(next);
                document.getElementById(`results-tab-${next}`)?.focus();
              }}
            >
              {VIEWS[name].label}
            </button>
          ))}
        </div>
      )}

      <section id="results-panel" role={only ? undefined : 'tabpanel'} aria-labelledby={only ? undefined : `results-tab-${current}`} className="results__panel">
        {view.frames.length > 0 ? (
          <Suspense fallback={<Spinner label="Loading the view" />}>
            <KeptWorkGate key={`${view.uploadID}-${current}`} view={view} name={current}>
              {(work, generation) => <Component key={generation} view={view} work={work} />}
            </KeptWorkGate>
          </Suspense>
        ) : (
          <p className="alert alert--info">This upload has no frames to show.</p>
        )}
      </section>

      {helpOpen && <ViewHelp onClose={() => setHelpOpen(false)} />}

      {noTextOpen && (
        <Modal
          title={NO_TEXT_TITLE}
          onClose={() => setNoTextOpen(false)}
          footer={
            <>
              <button type="button" className="btn btn--secondary" onClick={() => setNoTextOpen(false)}>
                Look at the frames
              </button>
              <button type="button" className="btn btn--primary" onClick={() => navigate(back.to)}>
                {back.label}
              </button>
            </>
          }
        >
          <p>Your media does not appear to contain any text.</p>
          <p>{textFoundSentence(found)}</p>
          <WhatToTry engine={view.engine ?? null} mediaContent={view.mediaContent} isVideo={view.format === 'Video'} />
          <NoTextSupportLine />
        </Modal>
      )}
    </div>
  );
}
