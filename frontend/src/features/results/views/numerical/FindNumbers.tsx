interface Props {
  onFind: () => void;
  /** What the last click found, or null before the first. */
  message: string | null;
}

/** The "Find the numbers" card above Selected Blocks: one click picks, names and locks every changing number. */
export function FindNumbers({ onFind, message }: Props) {
  return (
    <section className="card numerical-find" aria-labelledby="numerical-find-title">
      <div className="numerical-section__head">
        <h2 id="numerical-find-title">Numbers in one click</h2>
        <button type="button" className="btn btn--primary" onClick={onFind}>
          Find the numbers
        </button>
      </div>
      <p className="muted small">Selects every number that changes over the video, names it after its label on screen, cleans and locks it.</p>
      <p className="numerical-find__result" role="status">
        {message}
      </p>
    </section>
  );
}
