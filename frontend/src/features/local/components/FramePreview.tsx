import { formatClock } from '@frametext/text-analysis';
import type { LocalFrame } from '../../../lib/localRecords';
import type { ScannedFrame } from '../engine/scan';
import { MAX_WORD_BOXES, timeDecimals } from '../rules';

interface Props {
  frames: readonly ScannedFrame[];
  index: number;
  onIndex: (index: number) => void;
}

const boxOf = (nbox: NonNullable<LocalFrame['words']>[number]['nbox']) => (Array.isArray(nbox) ? { x: nbox[0], y: nbox[1], w: nbox[2], h: nbox[3] } : nbox);

/** The frame read, with a box around every word kept (800 at most), and Previous / Next. */
export function FramePreview({ frames, index, onIndex }: Props) {
  const frame = frames[index];
  if (!frame) return null;
  const words = (frame.words ?? []).slice(0, MAX_WORD_BOXES);
  const hidden = (frame.words?.length ?? 0) - words.length;
  return (
    <section className="card stack local-preview" aria-label="Preview">
      <div className="cluster cluster--between">
        <h2 className="card__title">
          Frame {index + 1} of {frames.length} ({formatClock(frame.t, timeDecimals(frames))})
        </h2>
        <div className="cluster">
          <button type="button" className="btn btn--secondary btn--sm" disabled={index === 0} onClick={() => onIndex(index - 1)}>
            Previous
          </button>
          <button type="button" className="btn btn--secondary btn--sm" disabled={index >= frames.length - 1} onClick={() => onIndex(index + 1)}>
            Next
          </button>
        </div>
      </div>
      {frame.missed && (
        <p className="alert alert--danger" data-testid="frame-missed">
          Not read: {frame.missed}
        </p>
      )}
      <div className="local-preview__stage">
        {frame.thumb && <img src={frame.thumb} alt={`Frame ${index + 1}`} />}
        <svg className="local-preview__boxes" viewBox="0 0 1 1" preserveAspectRatio="none" aria-hidden="true">
          {words.map((w, i) => {
            const b = boxOf(w.nbox);
            return <rect key={i} className="local-preview__box" data-text={w.text} x={b.x} y={b.y} width={b.w} height={b.h} />;
          })}
        </svg>
      </div>
      <p className="muted small">
        {words.length === 1 ? '1 word' : `${words.length} words`} found
        {hidden > 0 ? `; ${hidden} more are not outlined (at most ${MAX_WORD_BOXES})` : ''}.
      </p>
      <pre className="local-preview__text" data-testid="frame-text">
        {frame.text || 'No text found on this frame.'}
      </pre>
    </section>
  );
}
