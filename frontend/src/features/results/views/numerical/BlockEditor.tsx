import { useId } from 'react';
import type { BlockSettings } from '@frametext/text-analysis';

interface Props {
  /** The series' shown name (its id when the name is empty). */
  title: string;
  settings: BlockSettings;
  onChange: (settings: Partial<BlockSettings>) => void;
  onClose: () => void;
}

/**
 * A series' edit panel: its name and how its text is cleaned (in this order: words to remove, characters to remove,
 * split and keep one piece, numbers only). Changes show at once in the Results to Export table.
 */
export function BlockEditor({ title, settings, onChange, onClose }: Props) {
  const id = useId();
  return (
    <section className="card numerical-editor" aria-labelledby={`${id}-title`}>
      <div className="numerical-section__head">
        <h3 id={`${id}-title`}>Edit {title}</h3>
        <button type="button" className="btn btn--ghost btn--sm" onClick={onClose}>
          Close
        </button>
      </div>
      <div className="numerical-editor__grid">
        <div className="field">
          <label htmlFor={`${id}-name`}>Series name</label>
          <input id={`${id}-name`} className="input" value={settings.seriesName} onChange={(e) => onChange({ seriesName: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-words`}>Words to remove</label>
          <input
            id={`${id}-words`}
            className="input"
            value={settings.wordsToRemove}
            placeholder="e.g. Battery, kW"
            aria-describedby={`${id}-words-hint`}
            onChange={(e) => onChange({ wordsToRemove: e.target.value })}
          />
          <span id={`${id}-words-hint`} className="field__hint">
            Whole words, any case.
          </span>
        </div>
        <div className="field">
          <label htmlFor={`${id}-chars`}>Characters to remove</label>
          <input id={`${id}-chars`} className="input" value={settings.charactersToRemove} placeholder="e.g. %$" onChange={(e) => onChange({ charactersToRemove: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-split`}>Character to split on</label>
          <input id={`${id}-split`} className="input" value={settings.characterToSplit} maxLength={1} placeholder="e.g. :" onChange={(e) => onChange({ characterToSplit: e.target.value })} />
        </div>
        <div className="field">
          <label htmlFor={`${id}-keep`}>Keep split item</label>
          <input
            id={`${id}-keep`}
            className="input"
            type="number"
            min={0}
            step={1}
            value={settings.keepSplitItem}
            aria-describedby={`${id}-keep-hint`}
            onChange={(e) => {
              const n = Math.floor(Number(e.target.value));
              onChange({ keepSplitItem: Number.isFinite(n) && n > 0 ? n : 0 });
            }}
          />
          <span id={`${id}-keep-hint`} className="field__hint">
            1 keeps the first piece, 2 the second…; 0 keeps the text whole.
          </span>
        </div>
        <label className="checkbox numerical-editor__numbers">
          <input type="checkbox" checked={settings.numbersOnly} onChange={(e) => onChange({ numbersOnly: e.target.checked })} />
          Numbers only
        </label>
      </div>
    </section>
  );
}
