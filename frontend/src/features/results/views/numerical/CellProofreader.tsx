import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { boundsOf, type ProofSeries } from '@frametext/text-analysis';
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
}

/**
 * One cell of Results to Export checked against its picture: the crop of the frame around the reading, why the
 * value is unsure, and a field prefilled with the value. Enter saves the value as a correction and moves on.
 */
export function CellProofreader({ frame, frameLabel, proof, onSave, onRevert, onNext, onClose, unsureLeft }: Props) {
  const at = frame.index;
  const value = proof.series.values[at] ?? '';
  const [draft, setDraft] = useState(value);
  const input = useRef<HTMLInputElement>(null);
  // Opened from a cell or by "Next unsure value": the field takes the focus, so typing and Enter fix it.
  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, []);
  const index = proof.row.indexByFrame.get(at);
  const block = index === undefined ? undefined : frame.detections[index];
  const box = useMemo(() => (block ? boundsOf(block.vertices) : null), [block]);
  const reasons = proof.reasons[at] ?? [];
  const confidence = proof.confidences[at];
  const corrected = proof.corrected[at] ?? false;
  const name = proof.series.name;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSave(draft);
  };

  return (
    <section className="numerical-proof" aria-labelledby="numerical-proof-title">
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
          {box ? (
            <FrameCrop imageUrl={frame.imageUrl} space={frame.space} box={box} label={`${frameLabel} around ${name}`} />
          ) : (
            <p className="muted small">The block is not on this frame.</p>
          )}
        </div>
        <form className="numerical-proof__form" onSubmit={submit}>
          <ul className="numerical-proof__facts small">
            {reasons.map((reason) => (
              <li key={reason} className="numerical-proof__reason">
                {reason}
              </li>
            ))}
            {confidence !== null && confidence !== undefined && <li>Read with {Math.round(confidence)} % confidence as “{proof.readings[at] || 'nothing'}”</li>}
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
