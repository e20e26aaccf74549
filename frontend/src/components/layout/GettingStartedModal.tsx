import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useSession } from '../../lib/auth/hooks';
import { KEYS } from '../../lib/storage';
import { Modal } from '../Modal';

const STEPS = [
  { title: 'Upload your media', text: 'Pick a video (mp4 or mov) or a set of photos, choose what kind of text it shows, and how often to look.' },
  { title: 'We read the text', text: 'FrameText cuts the video into frames and reads the words and numbers on each one, with their positions.' },
  { title: 'View and export', text: 'Browse the text frame by frame, follow numbers over time on a chart, and download CSV or TXT.' },
] as const;

/** The spec's `got_started` flag: the modal shows until it has been closed once. */
export function hasGotStarted(): boolean {
  return localStorage.getItem(KEYS.gotStarted) !== null;
}

/** The getting-started modal, shown once on a first visit. */
export function GettingStartedModal() {
  const [open, setOpen] = useState(() => !hasGotStarted());
  const navigate = useNavigate();
  const session = useSession();
  if (!open) return null;

  const close = () => {
    localStorage.setItem(KEYS.gotStarted, 'true');
    setOpen(false);
  };

  return (
    <Modal
      title="Getting started with FrameText"
      onClose={close}
      footer={
        <>
          <button type="button" className="btn btn--secondary" onClick={close}>
            Close
          </button>
          <button
            type="button"
            className="btn btn--primary"
            onClick={() => {
              close();
              // Uploading needs an account: a signed-out visitor signs in first.
              navigate(session ? '/upload' : '/login');
            }}
          >
            Upload media
          </button>
        </>
      }
    >
      <p className="muted">Turn the text in a video or a photo series into data in three steps.</p>
      <ol className="getting-started">
        {STEPS.map((s) => (
          <li key={s.title}>
            <strong>{s.title}.</strong> {s.text}
          </li>
        ))}
      </ol>
    </Modal>
  );
}
