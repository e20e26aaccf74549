import { useId } from 'react';
import { useDraft } from '../../../../hooks/useDraft';
import { VIEWER_CONFIDENCE_MAX, VIEWER_CONFIDENCE_MIN, type BlockFilters, type Range } from '@frametext/text-analysis';

interface Props {
  filters: BlockFilters;
  onChange: (filters: BlockFilters) => void;
  /** The slider shows only when the detections carry a confidence. */
  showConfidence: boolean;
  limits: { maxLength: number; maxArea: number };
}

/** A number box that keeps what is typed until it is a number, then reports it. */
function NumberInput({ label, value, max, onValue }: { label: string; value: number; max: number; onValue: (v: number) => void }) {
  const id = useId();
  const [draft, setDraft] = useDraft(String(value));
  return (
    <div className="field region-filters__number">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        className="input"
        type="number"
        inputMode="numeric"
        min={0}
        max={max}
        value={draft}
        onChange={(e) => {
          setDraft(e.target.value);
          const v = Number(e.target.value);
          if (e.target.value.trim() !== '' && Number.isFinite(v)) onValue(v);
        }}
        onBlur={() => setDraft(String(value))}
      />
    </div>
  );
}

function RangeFields({ legend, unit, range, max, onRange }: { legend: string; unit: string; range: Range; max: number; onRange: (r: Range) => void }) {
  return (
    <fieldset className="region-filters__group">
      <legend>{legend}</legend>
      <div className="region-filters__pair">
        <NumberInput label={`Min ${unit}`} value={range.min} max={max} onValue={(min) => onRange({ ...range, min })} />
        <NumberInput label={`Max ${unit}`} value={range.max} max={max} onValue={(v) => onRange({ ...range, max: v })} />
      </div>
    </fieldset>
  );
}

/** The viewer's filters: required confidence, and ranges for a block's character length and area in px². */
export function RegionFilters({ filters, onChange, showConfidence, limits }: Props) {
  const id = useId();
  return (
    <section className="card region-filters" aria-labelledby={`${id}-title`}>
      <div className="cluster cluster--between">
        <h2 id={`${id}-title`} className="region-filters__title">
          Filters
        </h2>
        <button
          type="button"
          className="btn btn--ghost btn--sm"
          onClick={() => onChange({ minConfidence: VIEWER_CONFIDENCE_MIN, length: { min: 0, max: limits.maxLength }, area: { min: 0, max: limits.maxArea } })}
        >
          Reset filters
        </button>
      </div>
      {showConfidence && (
        <div className="field">
          <label htmlFor={`${id}-conf`}>
            Required confidence: <output htmlFor={`${id}-conf`}>{filters.minConfidence}%</output>
          </label>
          <input
            id={`${id}-conf`}
            className="region-filters__range"
            type="range"
            min={VIEWER_CONFIDENCE_MIN}
            max={VIEWER_CONFIDENCE_MAX}
            step={1}
            value={filters.minConfidence}
            onChange={(e) => onChange({ ...filters, minConfidence: Number(e.target.value) })}
          />
        </div>
      )}
      <RangeFields legend="Character length" unit="characters" range={filters.length} max={limits.maxLength} onRange={(length) => onChange({ ...filters, length })} />
      <RangeFields legend="Block area (px²)" unit="px²" range={filters.area} max={limits.maxArea} onRange={(area) => onChange({ ...filters, area })} />
    </section>
  );
}
