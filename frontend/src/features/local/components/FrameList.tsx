import { formatClock } from '@frametext/text-analysis';
import type { LocalFrame } from '../../../lib/localRecords';

interface Props {
  frames: readonly LocalFrame[];
  index: number;
  onIndex: (index: number) => void;
}

/** Every frame read so far: its time and its first line; choosing one shows it in the preview. */
export function FrameList({ frames, index, onIndex }: Props) {
  return (
    <section className="card local-frames" aria-label="Frames">
      <h2 className="card__title">Frames</h2>
      <ol className="local-frames__list">
        {frames.map((frame, i) => (
          <li key={i}>
            <button type="button" className={i === index ? 'local-frames__item local-frames__item--current' : 'local-frames__item'} aria-current={i === index || undefined} onClick={() => onIndex(i)}>
              <span className="local-frames__time">{formatClock(frame.t)}</span>
              <span className="local-frames__text">{frame.text?.split('\n')[0] || 'No text'}</span>
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}
