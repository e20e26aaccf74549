import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { boundsOf, type ProofSeries, type Rect } from '@frametext/text-analysis';
import type { ResultsFrame } from '../../model';
import { FrameCrop } from './FrameCrop';

interface Props {
  frame: ResultsFrame;
  frameLabel: string;
  proof: ProofSeries;
  /** Saves the typed value (Enter), then the view moves to the next unsure value. */
  onSave: (value: string) => void;
  onRevert: () => void;
  onNext: () => void;
  onClose: () => void;
  /** Unsure values left in the table. */
  unsureLeft: number;
  /** Where the series' block usually is (usualBox), cropped when nothing was read on this frame; null: the whole frame. */
  usual: Rect | null;
}

/**
 * One cell of Results to Export checked against its picture: the crop of the frame around the reading, why the
 * value is unsure, and a field prefilled with the value. Enter saves the value as a correction and moves on.
 */
export function CellProofreader({ frame, frameLabel, proof, onSave, onRevert, onNext, onClose, unsureLeft, usual }: Props) {
  const at = frame.index;
  const value = proof.series.values[at] ?? '';
  const [draft, setDraft] = useState(value);
  const section = useRef<HTMLElement>(null);
  const input = useRef<HTMLInputElement>(null);
  // Opened from a cell or by "Next unsure value": the proofreader comes into view whole (its heading clear of the
  // sticky navbar: scroll-margin-top in numerical.css) and the field takes the focus, so typing and Enter fix it.
  useEffect(() => {
    const shown = section.current;
    if (shown && typeof shown.scrollIntoView === 'function') shown.scrollIntoView({ block: 'nearest' });
    input.current?.focus({ preventScroll: true });
    input.current?.select();
  }, []);
  const index = proof.row.indexByFrame.get(at);
  const block = index === undefined ? undefined : frame.detections[index];
  const box = useMemo(() => (block ? boundsOf(block.vertices) : null), [block]);
  const name = proof.series.name;
  const crop = box
    ? { box, label: `${frameLabel} around ${name}` }
    : usual
      ? { box: usual, label: `${frameLabel} where ${name} usually is` }
      : { box: null, label: `${frameLabel}, the whole picture` };
  const reasons = proof.reasons[at] ?? [];
  const confidence = proof.confidences[at];
  const corrected = proof.corrected[at] ?? false;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave(draft);
  };

  return (
    <section ref={section} className="numerical-proof" aria-labelledby="numerical-proof-title">
      <div className="numerical-section__head">
        <h3 id="numerical-proof-title">
          {name}, {frameLabel}
        </h3>
        <button type="button" className="btn btn--secondary btn--sm" onClick={onClose}>
          Close
        </button>
      </div>
      <div className="numerical-proof__body">
        <div className="numerical-proof__picture">
          <FrameCrop imageUrl={frame.imageUrl} space={frame.space} box={crop.box} label={crop.label} />
        </div>
        <form className="numerical-proof__form" onSubmit={submit}>
          <ul className="numerical-proof__facts small">
            {reasons.map((reason) => (
              <li key={reason} className="numerical-proof__reason">
                {reason}
              </li>
            ))}
            {confidence !== null && confidence !== undefined && <li>Read with {Math.round(confidence)} % confidence as “{proof.readings[at] || 'nothing'}”</li>}
            {!box && <li>Nothing was read here on this frame: the picture shows {usual ? `where ${name} usually is` : 'the whole frame'}. Type the value it shows.</li>}
            {corrected && <li>Corrected by you</li>}
          </ul>
          <label className="field">
            <span className="field__label">Value on the picture</span>
            <input ref={input} className="input" value={draft} onChange={(e) => setDraft(e.target.value)} autoComplete="off" spellCheck={false} />
          </label>
          <p className="field__hint">Enter saves it and moves to the next unsure value; an empty value leaves the frame without one.</p>
          <div className="numerical-actions">
            <button type="submit" className="btn btn--primary btn--sm">
              Save
            </button>
            {corrected && (
              <button type="button" className="btn btn--secondary btn--sm" onClick={onRevert}>
                Revert to “{proof.readings[at] || 'nothing'}”
              </button>
            )}
            <button type="button" className="btn btn--secondary btn--sm" onClick={onNext} disabled={unsureLeft === 0}>
              Next unsure value
            </button>
          </div>
        </form>
      </div>
    </section>
  );
}
