import { useId } from 'react';
import { SLIDE_SIMILARITY_MAX, SLIDE_SIMILARITY_MIN } from '@frametext/text-analysis';

interface Props {
  threshold: number;
  onThreshold: (value: number) => void;
  /** How many frames are similar to the one before at this threshold. */
  similarCount: number;
  onApply: () => void;
}

/** The similarity slider (80 to 100 percent) and the button that unselects frames similar to the previous one. */
export function SimilarityFilter({ threshold, onThreshold, similarCount, onApply }: Props) {
  const id = useId();
  return (
    <div className="card slides-filter">
      <div className="field">
        <label htmlFor={id}>
          Similarity threshold: <output htmlFor={id}>{threshold}%</output>
        </label>
        <input
          id={id}
          className="slides-filter__range"
          type="range"
          min={SLIDE_SIMILARITY_MIN}
          max={SLIDE_SIMILARITY_MAX}
          step={1}
          value={threshold}
          aria-describedby={`${id}-hint`}
          onChange={(e) => onThreshold(Number(e.target.value))}
        />
        <p id={`${id}-hint`} className="field__hint">
          A frame whose words overlap the frame before it by at least this much is marked “Similar to previous”. {similarCount === 1 ? '1 frame is' : `${similarCount} frames are`} similar now.
        </p>
      </div>
      <button type="button" className="btn btn--secondary btn--sm" onClick={onApply}>
        Unselect similar frames
      </button>
    </div>
  );
}
