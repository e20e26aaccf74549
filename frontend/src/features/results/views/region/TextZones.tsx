import type { Rect, SelectionBox, TextZone } from '@frametext/text-analysis';

interface Props {
  zones: readonly TextZone[];
  /** The box a click places; null when no box is selected. */
  box: SelectionBox | undefined;
  /** False while the frames' size is still being read (no zone can be found yet). */
  ready: boolean;
  onPick: (rect: Rect) => void;
}

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The places where the upload's text sits (text-zones.ts); one click puts the selected box on one. */
export function TextZones({ zones, box, ready, onPick }: Props) {
  return (
    <section className="card region-zones" aria-labelledby="region-zones-title">
      <h2 id="region-zones-title" className="region-side__title">
        Text zones found
      </h2>
      {!ready ? (
        <p className="muted">Reading the frame size…</p>
      ) : zones.length === 0 ? (
        <p className="muted">No text sits in one place on several frames.</p>
      ) : (
        <>
          <p className="field__hint">A click puts the {box?.name ?? 'selected'} box on the zone (outlined faintly on the picture).</p>
          <ul className="region-zones__list">
            {zones.map((zone) => (
              <li key={zone.name} className="region-zones__zone">
                <button type="button" className="btn btn--secondary btn--sm" onClick={() => onPick(zone.rect)}>
                  {capitalised(zone.name)}
                </button>
                <span className="muted small">{zone.changing ? 'text changes (captions)' : 'text stays (a logo, a name)'}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
