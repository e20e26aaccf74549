import type { KeptWorkView } from '@frametext/contracts';
import type { ReactNode } from 'react';
import { Spinner } from '../../../components/Spinner';
import type { ResultsView } from '../model';
import { useKeptWork, type KeptWork } from './useKeptWork';
import type { SaveState } from './workSaver';

interface Props {
  view: ResultsView;
  name: KeptWorkView;
  /** The view, given the work to start from (undefined when it could not be read: the view starts fresh). */
  children: (work: KeptWork | undefined, generation: number) => ReactNode;
}

function savedText(status: SaveState, where: 'server' | 'browser'): string | null {
  switch (status.state) {
    case 'idle':
      return where === 'server' ? 'Your work on this view is kept with your account.' : 'Your work on this view is kept in this browser.';
    case 'saving':
      return 'Saving…';
    case 'saved':
      return where === 'server' ? 'Saved' : 'Saved in this browser';
    case 'retrying':
      return 'Not saved: retrying';
    case 'stale':
      return null;
    case 'refused':
      return `Not saved: ${status.message}`;
  }
}

/**
 * Restores the person's work in a view before showing it, and says quietly whether their changes are kept. When
 * another tab or browser saved this view since it was opened, the person picks which work to keep.
 */
export function KeptWorkGate({ view, name, children }: Props) {
  const kept = useKeptWork(view, name);
  if (kept.phase === 'loading') return <Spinner label="Loading your work" />;
  if (kept.phase === 'unavailable') {
    return (
      <>
        <p className="kept-work kept-work--warning small" role="status">
          {kept.message} Changes here are not kept.{' '}
          <button type="button" className="btn btn--ghost btn--sm" onClick={kept.retry}>
            Try again
          </button>
        </p>
        {children(undefined, 0)}
      </>
    );
  }
  const { status, where } = kept;
  const text = savedText(status, where);
  const warn = status.state === 'retrying' || status.state === 'refused' || status.state === 'stale';
  return (
    <>
      <p className={`kept-work small${warn ? ' kept-work--warning' : ' muted'}`} role="status" aria-live="polite" data-testid="kept-work-status">
        {text}
        {status.state === 'stale' && (
          <>
            This view was changed in another tab or browser since you opened it.{' '}
            <button type="button" className="btn btn--ghost btn--sm" onClick={kept.loadNewer}>
              Load the newer work
            </button>{' '}
            <button type="button" className="btn btn--ghost btn--sm" onClick={kept.keepThisTab}>
              Keep this tab&apos;s work
            </button>
          </>
        )}
      </p>
      {children(kept.work, kept.generation)}
    </>
  );
}
