import { foundAlmostNoText, type TextFound } from '@frametext/contracts/rules';

interface Props {
  onFind: () => void;
  /** What the last click found, or null before the first. */
  message: string | null;
}

/**
 * What "Find the numbers" says when it found nothing and the frame has no box to click: what is true instead of
 * "Click a box on the frame".
 */
export function nothingToPickMessage(found: TextFound): string {
  if (found.framesWithText === 0) return 'No text was found on any frame, so there are no numbers to find. See “What to try” above.';
  const pick = 'No numbers that change over the video were found, and no text was found on this frame: move to a frame with text to pick a block yourself';
  return foundAlmostNoText(found) ? `${pick}, or see “What to try” above.` : `${pick}.`;
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
