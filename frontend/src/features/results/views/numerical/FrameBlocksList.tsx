import type { FrameBox } from './BlockBoxes';

interface Props {
  label: string;
  boxes: readonly FrameBox[];
  onPick: (index: number) => void;
  onHighlight: (index: number | null) => void;
}

/**
 * The current frame's tracked blocks as buttons, in reading order: what the OCR read, and the keyboard's way to
 * pick a block (the boxes on the picture are for the mouse). Focus or hover outlines the block on the picture.
 */
export function FrameBlocksList({ label, boxes, onPick, onHighlight }: Props) {
  return (
    <section className="card numerical-blocks" aria-labelledby="numerical-blocks-title">
      <h2 id="numerical-blocks-title">
        Blocks on this frame <span className="muted small">({label}: {boxes.length})</span>
      </h2>
      {boxes.length === 0 ? (
        <p className="muted small">No tracked text on this frame.</p>
      ) : (
        <ul className="numerical-blocks__list">
          {boxes.map(({ index, detection, state }) => (
            <li key={index}>
              <button
                type="button"
                className={`numerical-chip numerical-chip--${state}`}
                aria-pressed={state === 'selected'}
                aria-disabled={state === 'locked' ? true : undefined}
                title={state === 'locked' ? 'A locked series: unlock it to change it' : state === 'selected' ? 'Selected: edit its series' : 'Select as a series'}
                onClick={() => onPick(index)}
                onFocus={() => onHighlight(index)}
                onBlur={() => onHighlight(null)}
                onMouseEnter={() => onHighlight(index)}
                onMouseLeave={() => onHighlight(null)}
              >
                {detection.text.trim()}
                {state === 'locked' && <span className="visually-hidden">, locked</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
