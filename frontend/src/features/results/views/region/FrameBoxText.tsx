import type { SelectionBox } from '@frametext/text-analysis';

interface Props {
  label: string;
  boxes: readonly SelectionBox[];
  /** Lines per box, same order as `boxes`. */
  lines: readonly (readonly string[])[];
  /** False while the frame's size is still being read (no box can be placed yet). */
  ready: boolean;
}

/** The current frame's text, box by box. */
export function FrameBoxText({ label, boxes, lines, ready }: Props) {
  return (
    <section className="card region-now" aria-labelledby="region-now-title">
      <h2 id="region-now-title" className="region-side__title">
        Text in the boxes <span className="muted small">{label}</span>
      </h2>
      {boxes.length === 0 ? (
        <p className="muted">Turn on a box to read the text inside it.</p>
      ) : !ready ? (
        <p className="muted">Reading the frame size…</p>
      ) : (
        <dl className="region-now__boxes">
          {boxes.map((box, i) => (
            <div key={box.id} className="region-now__box" style={{ borderColor: box.colour }}>
              <dt>{box.name}</dt>
              <dd>{lines[i]?.length ? lines[i]!.map((line, j) => <p key={j}>{line}</p>) : <p className="muted">Nothing wholly inside this box.</p>}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}
