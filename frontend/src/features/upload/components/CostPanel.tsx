import type { ReactNode } from 'react';
import { MESSAGES, shortfallMessage, type CostQuote } from '../rules';

interface CostPanelProps {
  quote: CostQuote | null;
  /** Shown instead of the figures while they cannot be computed (no media yet, reading the video's length...). */
  pending: string;
  /** A line under the figures, such as the span of a photo series. */
  note?: string;
  /** Slide detection: the figures are the most it can cost, and the person pays for the slides it finds. */
  perSlide?: boolean;
  purchase: ReactNode;
}

/**
 * Frame count, credit cost and the spec's two red warnings. With slide detection the figures are a ceiling, and
 * the panel says so before the upload: it pays for the frames slide detection keeps, never more than shown.
 */
export function CostPanel({ quote, pending, note, perSlide = false, purchase }: CostPanelProps) {
  return (
    <section className="card cost-panel stack--sm" aria-label="Cost">
      <h2 className="card__title">Cost</h2>
      {quote ? (
        <>
          <dl className="cost-panel__figures">
            <div>
              <dt>{perSlide ? 'Frames, at most' : 'Frames'}</dt>
              <dd>{quote.frames}</dd>
            </div>
            <div>
              <dt>{perSlide ? 'Credits, at most' : 'Credits'}</dt>
              <dd>{quote.credits}</dd>
            </div>
          </dl>
          {note && <p className="muted small">{note}</p>}
          {perSlide && (
            <p className="small">
              You pay for the frames slide detection keeps, one per new slide and one per bullet a slide builds up, so never more than {quote.credits}{' '}
              {quote.credits === 1 ? 'credit' : 'credits'}. The rest comes back when processing ends.
            </p>
          )}
          {quote.tooManyFrames && (
            <p className="alert alert--danger" role="alert">
              {MESSAGES.tooManyFrames}
            </p>
          )}
          {quote.shortfall && (
            <div className="alert alert--danger stack--sm" role="alert">
              <p>{shortfallMessage(quote.shortfall.have, quote.shortfall.need)}</p>
              <p>
                {quote.shortfall.framesCovered > 0
                  ? `Only the first ${quote.shortfall.framesCovered} frames will be processed unless you buy more credits.`
                  : 'No frames can be processed until you buy more credits.'}
              </p>
              {purchase}
            </div>
          )}
        </>
      ) : (
        <p className="muted">{pending}</p>
      )}
      <p className="muted small">New to this? Try 3 to 4 key frames first to check the text is read the way you want.</p>
    </section>
  );
}
