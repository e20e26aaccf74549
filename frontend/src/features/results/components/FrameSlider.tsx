import {  } from 'react';
import { useDraft } from '../../../hooks/useDraft';

/** From this many frames on, the slider changes frame on release (or blur), not while it moves. */
export const LIVE_SLIDER_LIMIT = 25;

interface Props {
  count: number;
  index: number;
  onIndex: (index: number) => void;
  /** What the current position reads as, e.g. "Frame 3 (0:10)". */
  label: (index: number) => string;
}

/**
 * Prev, a frame slider and Next. Under 25 frames the frame follows the slider live; from 25 on, it changes when the
 * slider is released or loses focus, so long uploads do not redraw on every step of a drag.
 */
export function FrameSlider({ count, index, onIndex, label }: Props) {
  const live = count < LIVE_SLIDER_LIMIT;
  const [draft, setDraft] = useDraft(index);
  const go = (i: number) => onIndex(Math.min(Math.max(0, i), count - 1));
  const commit = () => {
    if (draft !== index) go(draft);
  };

  return (
    <div className="frame-slider">
      <div className="frame-slider__controls">
        <button type="button" className="btn btn--secondary btn--sm" onClick={() => go(index - 1)} disabled={index <= 0}>
          Prev
        </button>
        <input
          className="frame-slider__range"
          type="range"
          min={1}
          max={Math.max(1, count)}
          step={1}
          value={draft + 1}
          aria-label="Frame"
          aria-valuetext={`${label(draft)} of ${count}`}
          disabled={count < 2}
          onChange={(e) => {
            const next = Number(e.target.value) - 1;
            setDraft(next);
            if (live) go(next);
          }}
          onPointerUp={commit}
          onKeyUp={commit}
          onBlur={commit}
        />
        <button type="button" className="btn btn--secondary btn--sm" onClick={() => go(index + 1)} disabled={index >= count - 1}>
          Next
        </button>
      </div>
      <p className="muted small frame-slider__position" aria-live="polite">
        {label(draft)} of {count}
      </p>
    </div>
  );
}
