import type { BoxId, SelectionBox } from '@frametext/text-analysis';

interface Props {
  boxes: readonly SelectionBox[];
  selected: BoxId;
  onEnabled: (id: BoxId, enabled: boolean) => void;
  onSelect: (id: BoxId) => void;
}

/** The four boxes: a checkbox turns each on or off, a radio button picks the one to draw, move and resize. */
export function BoxControls({ boxes, selected, onEnabled, onSelect }: Props) {
  return (
    <fieldset className="card region-controls">
      <legend className="region-controls__legend">Boxes</legend>
      <div className="region-controls__list">
        {boxes.map((box) => (
          <div key={box.id} className={`region-controls__box${box.id === selected && box.enabled ? ' region-controls__box--selected' : ''}`}>
            <span className="region-swatch" style={{ background: box.colour }} aria-hidden="true" />
            <label className="checkbox">
              <input type="checkbox" checked={box.enabled} onChange={(e) => onEnabled(box.id, e.target.checked)} />
              {box.name}
            </label>
            <label className="checkbox region-controls__pick">
              <input type="radio" name="region-selected-box" aria-label={`Edit the ${box.name} box`} checked={box.id === selected} disabled={!box.enabled} onChange={() => onSelect(box.id)} />
              <span aria-hidden="true">Edit</span>
            </label>
          </div>
        ))}
      </div>
    </fieldset>
  );
}
