import { memo, useId } from 'react';
import { useDraft } from '../../../../hooks/useDraft';
import { TRACKING_LIMITS, type TrackingSettings } from '@frametext/text-analysis';

interface Props {
  settings: TrackingSettings;
  onChange: (settings: TrackingSettings) => void;
  /** Required Confidence shows only when the detections carry a confidence. */
  showConfidence: boolean;
  /** Commit while the slider moves (few frames) or only on release, like the frame slider. */
  live: boolean;
}

export function minSizeText(share: number): string {
  return share <= 0 ? 'All' : `${Math.round(share * 100)}% of the largest block`;
}

const TEXTS: Record<keyof TrackingSettings, { label: string; value: (v: number) => string; hint: string }> = {
  similarity: {
    label: 'Similarity Requirement',
    value: (v) => `${v}%`,
    hint: 'How alike a block that moved must read to stay the same series (numbers may change freely in place).',
  },
  disappearance: {
    label: 'Allowable Disappearance',
    value: (v) => `${v} ${v === 1 ? 'frame' : 'frames'}`,
    hint: 'Frames a block may go unread and still continue its series.',
  },
  minSize: {
    label: 'Minimum Block Size',
    value: minSizeText,
    hint: 'Ignore blocks smaller than this share of the largest block (by side length).',
  },
  confidence: {
    label: 'Required Confidence',
    value: (v) => `${v}`,
    hint: 'Ignore blocks the OCR read with less confidence than this.',
  },
};

function SettingSlider({ name, value, live, onCommit }: { name: keyof TrackingSettings; value: number; live: boolean; onCommit: (v: number) => void }) {
  const id = useId();
  const [draft, setDraft] = useDraft(value);
  const { min, max, step } = TRACKING_LIMITS[name];
  const text = TEXTS[name];
  const commit = () => {
    if (draft !== value) onCommit(draft);
  };
  return (
    <div className="field numerical-setting">
      <div className="numerical-setting__head">
        <label htmlFor={id}>{text.label}</label>
        <output htmlFor={id} className="numerical-setting__value">
          {text.value(draft)}
        </output>
      </div>
      <input
        id={id}
        type="range"
        min={min}
        max={max}
        step={step}
        value={draft}
        aria-valuetext={text.value(draft)}
        aria-describedby={`${id}-hint`}
        onChange={(e) => {
          const next = Number(e.target.value);
          setDraft(next);
          if (live) onCommit(next);
        }}
        onPointerUp={commit}
        onKeyUp={commit}
        onBlur={commit}
      />
      <span id={`${id}-hint`} className="field__hint">
        {text.hint}
      </span>
    </div>
  );
}

/** The four tracking sliders. A change runs tracking again (and drops unlocked series: the view says so). */
export const TrackingSettingsPanel = memo(function TrackingSettingsPanel({ settings, onChange, showConfidence, live }: Props) {
  const names: (keyof TrackingSettings)[] = showConfidence ? ['similarity', 'disappearance', 'minSize', 'confidence'] : ['similarity', 'disappearance', 'minSize'];
  return (
    <section className="card numerical-settings" aria-labelledby="numerical-settings-title">
      <h2 id="numerical-settings-title">Tracking settings</h2>
      <p className="muted small">Changing a setting tracks the blocks again and drops the series that are not locked.</p>
      <div className="numerical-settings__grid">
        {names.map((name) => (
          <SettingSlider key={name} name={name} value={settings[name]} live={live} onCommit={(v) => onChange({ ...settings, [name]: v })} />
        ))}
      </div>
    </section>
  );
});
