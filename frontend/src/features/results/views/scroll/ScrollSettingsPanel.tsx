import { useId } from 'react';
import { SCROLL_SETTING_RANGES, type ScrollSettings } from '@frametext/text-analysis';

interface SliderProps {
  name: keyof ScrollSettings;
  label: string;
  hint: string;
  settings: ScrollSettings;
  onSettings: (settings: ScrollSettings) => void;
}

function PercentSlider({ name, label, hint, settings, onSettings }: SliderProps) {
  const id = useId();
  const range = SCROLL_SETTING_RANGES[name];
  return (
    <div className="field scroll-slider">
      <label htmlFor={id}>
        {label}: <output htmlFor={id}>{settings[name]}%</output>
      </label>
      <input
        id={id}
        type="range"
        min={range.min}
        max={range.max}
        step={range.step}
        value={settings[name]}
        aria-describedby={`${id}-hint`}
        onChange={(e) => onSettings({ ...settings, [name]: Number(e.target.value) })}
      />
      <p id={`${id}-hint`} className="field__hint">
        {hint}
      </p>
    </div>
  );
}

interface Props {
  settings: ScrollSettings;
  onSettings: (settings: ScrollSettings) => void;
  ignoreDuplicates: boolean;
  onIgnoreDuplicates: (value: boolean) => void;
}

/** The three detection sliders, the duplicate threshold and the Ignore duplicates checkbox. */
export function ScrollSettingsPanel({ settings, onSettings, ignoreDuplicates, onIgnoreDuplicates }: Props) {
  const common = { settings, onSettings };
  return (
    <section className="card scroll-card" aria-labelledby="scroll-settings-title">
      <h2 id="scroll-settings-title" className="scroll-card__title">
        Detection settings
      </h2>
      <PercentSlider {...common} name="linePositionTolerance" label="Line position tolerance" hint="How far a line may sit from its place in the template, as a share of the box's height." />
      <PercentSlider {...common} name="lineCountTolerance" label="Line count tolerance" hint="How many more or fewer lines than the template an item may have before it scores lower." />
      <PercentSlider {...common} name="minSimilarity" label="Minimum similarity" hint="The match an item needs; lower it to find items laid out less alike." />
      <PercentSlider {...common} name="duplicateThreshold" label="Duplicate threshold" hint="How alike an item's text must be to an item seen before to place its frame in the list; at the same place in the list, half alike is the same item." />
      <label className="checkbox">
        <input type="checkbox" checked={ignoreDuplicates} onChange={(e) => onIgnoreDuplicates(e.target.checked)} />
        Ignore duplicates
      </label>
    </section>
  );
}
