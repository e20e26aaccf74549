import { Link } from 'react-router-dom';
import { foundAlmostNoText } from '@frametext/contracts/rules';
import { NO_TEXT_TITLE, NoTextSupportLine, WhatToTry, chargeSentence, textFoundSentence } from '../../../components/NoTextFound';
import { CHARGE_RULE } from '../../../lib/credits/chargeRule';
import type { UploadStatus } from '../api';
import type { StartedUpload } from '../hooks/useUploadTransfer';

interface DoneStepProps {
  upload: StartedUpload;
  /** The status that said processed (textFound and charged are absent from older servers: then the text is ready). */
  status: UploadStatus;
  onStartOver: () => void;
}

function NextLinks({ uploadID, viewLabel, onStartOver }: { uploadID: string; viewLabel: string; onStartOver: () => void }) {
  return (
    <div className="cluster">
      <Link className="btn btn--primary btn--lg" to={`/view-upload/${encodeURIComponent(uploadID)}`}>
        {viewLabel}
      </Link>
      <button type="button" className="btn btn--secondary" onClick={onStartOver}>
        Start Over
      </button>
      <Link className="btn btn--ghost" to="/uploads">
        All uploads
      </Link>
    </div>
  );
}

/** Step 3: "Your text is ready", or "No Text Results Found" with what was read, what it was charged and what to try. */
export function DoneStep({ upload, status, onStartOver }: DoneStepProps) {
  const found = status.textFound;
  if (!found || !foundAlmostNoText(found)) {
    return (
      <section className="stack" aria-labelledby="done-heading">
        <h2 id="done-heading">Your text is ready</h2>
        <p>Every frame has been read. Open the results to explore, track values over time and export CSV or TXT.</p>
        <NextLinks uploadID={upload.uploadID} viewLabel="View results" onStartOver={onStartOver} />
      </section>
    );
  }
  return (
    <section className="stack" aria-labelledby="done-heading">
      <h2 id="done-heading">{NO_TEXT_TITLE}</h2>
      <p>Your media does not appear to contain any text. {textFoundSentence(found)}</p>
      {status.charged && (
        <p>
          {chargeSentence(status.charged)} {CHARGE_RULE}
        </p>
      )}
      <WhatToTry engine={upload.engine} mediaContent={upload.mediaContent} isVideo={upload.isVideo} />
      <NoTextSupportLine />
      <NextLinks uploadID={upload.uploadID} viewLabel="Look at the frames" onStartOver={onStartOver} />
    </section>
  );
}
