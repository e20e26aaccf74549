import { Modal } from '../../../components/Modal';

const GUIDE = [
  { name: 'Presentation', use: 'Slides, documents and screens of prose. Reads each frame as lines and paragraphs, drops frames that repeat the one before, and exports the text of the frames you keep.' },
  { name: 'Numerical', use: 'Readings that change over time: a charger screen, a scoreboard, telemetry. Click the numbers you want; each is followed from frame to frame, cleaned, charted and exported as a CSV series.' },
  { name: 'Region', use: 'Captions and subtitles, or any text that always appears in the same place. Draw up to four boxes; their text is exported by timestamp as CSV, TXT, SRT or WebVTT.' },
  { name: 'Scroll', use: 'A list scrolled past the camera: search results, a feed, a table. Mark one item as a template and every matching item is found across the frames, with duplicates counted once.' },
];

/** "Which view should I use?": one line on what each view is for. */
export function ViewHelp({ onClose }: { onClose: () => void }) {
  return (
    <Modal
      title="Which view should I use?"
      onClose={onClose}
      footer={
        <button type="button" className="btn btn--primary" onClick={onClose}>
          Got it!
        </button>
      }
    >
      <dl className="view-help">
        {GUIDE.map((g) => (
          <div key={g.name}>
            <dt>{g.name}</dt>
            <dd>{g.use}</dd>
          </div>
        ))}
      </dl>
    </Modal>
  );
}
