/** A busy indicator with words for screen readers and a visible label. */
export function Spinner({ label, detail }: { label: string; detail?: string }) {
  return (
    <div className="spinner" role="status" aria-live="polite">
      <span className="spinner__wheel" aria-hidden="true" />
      <span className="spinner__label">{label}</span>
      {detail && <span className="spinner__detail">{detail}</span>}
    </div>
  );
}
