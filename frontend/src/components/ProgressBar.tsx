export interface ProgressBarProps {
  /** The accessible name, e.g. "Upload progress". */
  label: string;
  value: number;
  max?: number;
  min?: number;
  /** Visible words beside the bar, e.g. "12 of 40 frames". */
  detail?: string;
  /** No known amount yet: an animated bar without aria-valuenow. */
  indeterminate?: boolean;
  showLabel?: boolean;
}

export function ProgressBar({ label, value, max = 100, min = 0, detail, indeterminate, showLabel = true }: ProgressBarProps) {
  const clamped = Math.min(max, Math.max(min, value));
  const percent = max > min ? ((clamped - min) / (max - min)) * 100 : 0;
  return (
    <div className={indeterminate ? 'progress progress--indeterminate' : 'progress'}>
      {(showLabel || detail) && (
        <div className="progress__head">
          {showLabel && <span>{label}</span>}
          <span className="muted">{detail ?? (indeterminate ? '' : `${Math.round(percent)}%`)}</span>
        </div>
      )}
      <div
        className="progress__track"
        role="progressbar"
        aria-label={label}
        aria-valuemin={min}
        aria-valuemax={max}
        aria-valuenow={indeterminate ? undefined : clamped}
        aria-valuetext={detail}
      >
        <div className="progress__bar" style={{ width: `${percent}%` }} />
      </div>
    </div>
  );
}
