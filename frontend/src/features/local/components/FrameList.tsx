import type { ScannedFrame } from '../engine/scan';
import { frameHeading, frameSummary, timeDecimals } from '../rules';

interface Props {
  frames: readonly ScannedFrame[];
  index: number;
  onIndex: (index: number) => void;
}

/** Every frame read so far, each with its own heading (number and time) and its own text; choosing one previews it. */
export function FrameList({ frames, index, onIndex }: Props) {
  const decimals = timeDecimals(frames);
  return (
    <section className="card local-frames" aria-label="Frames">
      <h2 className="card__title">Frames</h2>
      <ol className="local-frames__list">
        {frames.map((frame, i) => (
          <li key={i}>
            <button
              type="button"
              className={`local-frames__item${i === index ? ' local-frames__item--current' : ''}${frame.missed ? ' local-frames__item--missed' : ''}`}
              aria-current={i === index || undefined}
              onClick={() => onIndex(i)}
            >
              <span className="local-frames__heading">{frameHeading(frame, i, decimals)}</span>
              <span className="local-frames__text">{frameSummary(frame)}</span>
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}
