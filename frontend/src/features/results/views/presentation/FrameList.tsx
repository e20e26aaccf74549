import { memo } from 'react';

export interface FrameRowData {
  index: number;
  label: string;
  thumbUrl: string | null;
  /** The frame's first line, or nothing when it has no text. */
  snippet: string;
}

interface RowProps extends FrameRowData {
  checked: boolean;
  similar: boolean;
  /** The next frame shows this one's text and more: an earlier build of the same slide. */
  build: boolean;
  current: boolean;
  onToggle: (index: number) => void;
  onOpen: (index: number) => void;
}

/**
 * One frame of the list. Memoised on plain props, so ticking one box or moving the similarity slider redraws only
 * the rows whose state changed, even with hundreds of frames.
 */
const FrameRow = memo(function FrameRow({ index, label, thumbUrl, snippet, checked, similar, build, current, onToggle, onOpen }: RowProps) {
  return (
    <li className={`slides-row${current ? ' slides-row--current' : ''}${checked ? '' : ' slides-row--off'}`}>
      <label className="slides-row__check">
        <input type="checkbox" checked={checked} onChange={() => onToggle(index)} />
        <span className="visually-hidden">Select {label}</span>
      </label>
      <button type="button" className="slides-row__open" aria-current={current ? 'true' : undefined} onClick={() => onOpen(index)}>
        {thumbUrl ? <img className="slides-row__thumb" src={thumbUrl} alt="" loading="lazy" decoding="async" width={96} height={54} /> : <span className="slides-row__thumb" aria-hidden="true" />}
        <span className="slides-row__text">
          <span className="slides-row__label">{label}</span>
          {build && <span className="badge badge--info slides-row__badge">Earlier build</span>}
          {similar && <span className="badge badge--warning slides-row__badge">Similar to previous</span>}
          <span className="slides-row__snippet">{snippet || 'No text found'}</span>
        </span>
      </button>
    </li>
  );
});

interface Props {
  rows: readonly FrameRowData[];
  selected: readonly boolean[];
  similar: readonly boolean[];
  builds: readonly boolean[];
  current: number;
  onToggle: (index: number) => void;
  onOpen: (index: number) => void;
}

/** Every frame with its checkbox, thumbnail, label and first line; the rows are cheap and images load lazily. */
export function FrameList({ rows, selected, similar, builds, current, onToggle, onOpen }: Props) {
  return (
    <ul className="slides-list" aria-label="Frames">
      {rows.map((row) => (
        <FrameRow key={row.index} {...row} checked={selected[row.index] ?? false} similar={similar[row.index] ?? false} build={builds[row.index] ?? false} current={row.index === current} onToggle={onToggle} onOpen={onOpen} />
      ))}
    </ul>
  );
}
