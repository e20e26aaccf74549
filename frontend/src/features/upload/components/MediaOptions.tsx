import { FRAME_INTERVALS, SLIDE_SAMPLE_SECONDS, type MediaContent, type SortPreference } from '@frametext/contracts/rules';
import { ORIGINAL_LANGUAGES, TARGET_LANGUAGES } from '../languages';
import { intervalLabel } from '../rules';

export interface MediaOptionsValue {
  mediaContent: MediaContent;
  interval: number;
  sortPreference: SortPreference;
  slideDetection: boolean;
  originalLanguage: string | null;
  targetLanguage: string | null;
}

interface MediaOptionsProps {
  value: MediaOptionsValue;
  onChange: (patch: Partial<MediaOptionsValue>) => void;
  /** What is chosen decides which settings apply: the interval to a video, the sort to photos. */
  media: 'video' | 'photos' | null;
  disabled: boolean;
}

const MODES: { value: MediaContent; label: string; hint: string }[] = [
  { value: 'numerical', label: 'Numerical', hint: 'Numbers and text blocks kept in place and tracked across frames: dashboards, gauges, telemetry.' },
  { value: 'presentation', label: 'Presentation', hint: 'Readable lines and paragraphs per frame: slides, documents, lectures.' },
  { value: 'captions', label: 'Captions (Region)', hint: 'Text inside a box you draw, by timestamp: subtitles and captions, with optional translation.' },
  { value: 'scroll', label: 'Scroll', hint: 'A list that scrolls past on screen (a feed, a catalogue): box one item and every item of the list is found.' },
];

// Select values cannot be null: '' stands for the entries without a code (Auto, Same).
const toCode = (v: string) => (v === '' ? null : v);

export function MediaOptions({ value, onChange, media, disabled }: MediaOptionsProps) {
  const hint = MODES.find((m) => m.value === value.mediaContent)?.hint;
  const detectingSlides = value.mediaContent === 'presentation' && value.slideDetection;
  return (
    <div className="stack">
      <div className="field">
        <label htmlFor="upload-media-content">Media content</label>
        <select
          id="upload-media-content"
          className="select"
          value={value.mediaContent}
          disabled={disabled}
          onChange={(e) => onChange({ mediaContent: e.target.value as MediaContent })}
          aria-describedby="upload-media-content-hint"
        >
          {MODES.map((m) => (
            <option key={m.value} value={m.value}>
              {m.label}
            </option>
          ))}
        </select>
        <p id="upload-media-content-hint" className="field__hint">
          {hint}
        </p>
      </div>

      {media !== 'photos' && (
        <div className="field">
          <label htmlFor="upload-interval">Frame interval</label>
          <select
            id="upload-interval"
            className="select"
            value={value.interval}
            disabled={disabled || detectingSlides}
            onChange={(e) => onChange({ interval: Number(e.target.value) })}
            aria-describedby={detectingSlides ? 'upload-interval-hint' : undefined}
          >
            {FRAME_INTERVALS.map((seconds) => (
              <option key={seconds} value={seconds}>
                {intervalLabel(seconds)}
              </option>
            ))}
          </select>
          {detectingSlides && (
            <p id="upload-interval-hint" className="field__hint">
              Not used with slide detection, which looks at the video every {SLIDE_SAMPLE_SECONDS} seconds.
            </p>
          )}
        </div>
      )}

      {media === 'photos' && (
        <div className="field">
          <label htmlFor="upload-sort">Sort photos by</label>
          <select id="upload-sort" className="select" value={value.sortPreference} disabled={disabled} onChange={(e) => onChange({ sortPreference: e.target.value as SortPreference })}>
            <option value="name">File name</option>
            <option value="timestamp">Capture time</option>
          </select>
        </div>
      )}

      {value.mediaContent === 'presentation' && (
        <div className="field">
          <label className="checkbox">
            <input type="checkbox" checked={value.slideDetection} disabled={disabled} onChange={(e) => onChange({ slideDetection: e.target.checked })} aria-describedby="upload-slides-hint" />
            Slide detection
          </label>
          <p id="upload-slides-hint" className="field__hint">
            Reads each new slide once instead of every frame; you pay for the slides it finds, not for the whole video.
          </p>
        </div>
      )}

      <div className="grid grid--2 upload-languages">
        <div className="field">
          <label htmlFor="upload-original-language">Original language</label>
          <select
            id="upload-original-language"
            className="select"
            value={value.originalLanguage ?? ''}
            disabled={disabled}
            onChange={(e) => onChange({ originalLanguage: toCode(e.target.value) })}
            aria-describedby="upload-language-hint"
          >
            {ORIGINAL_LANGUAGES.map((l) => (
              <option key={l.label} value={l.code ?? ''}>
                {l.label}
              </option>
            ))}
          </select>
          <p id="upload-language-hint" className="field__hint">
            The language on screen: the Basic engine reads it with that language's model, so accents and umlauts come out right.
          </p>
        </div>
        {value.mediaContent === 'captions' && (
          <div className="field">
            <label htmlFor="upload-target-language">Target language</label>
            <select id="upload-target-language" className="select" value={value.targetLanguage ?? ''} disabled={disabled} onChange={(e) => onChange({ targetLanguage: toCode(e.target.value) })}>
              {TARGET_LANGUAGES.map((l) => (
                <option key={l.label} value={l.code ?? ''}>
                  {l.label}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
    </div>
  );
}
