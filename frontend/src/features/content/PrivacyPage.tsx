import { RETENTION_DAYS } from '@frametext/contracts/rules';
import { SUPPORT_EMAIL } from '../../lib/contact';
import './content.css';

export default function PrivacyPage() {
  return (
    <article className="content-page">
      <header className="content-header">
        <h1>Privacy Policy</h1>
        <p className="content-muted">Last updated: September 1, 2025</p>
      </header>
      <div className="post-body">
        <p>
          This policy explains what FrameText stores about you, why, who else sees it, and how long it is kept. The short version: we keep what we
          need to run your uploads and your account, your media is deleted after {RETENTION_DAYS} days, and we do not sell data or use it for
          advertising.
        </p>
        <h2>What we store</h2>
        <ul>
          <li>
            <strong>Your account:</strong> your e-mail address, a hash of your password (never the password itself) or the identifier of the Google
            account you signed in with, and when the account was created.
          </li>
          <li>
            <strong>Credits:</strong> your balance, your plan, and a record of credits granted, purchased and spent. Card payments are handled by the
            payment provider; we never see or store card numbers.
          </li>
          <li>
            <strong>Uploads:</strong> the media you upload, the frames cut from it, the text recognised in them, and the settings you chose (name,
            mode, interval, engine, languages).
          </li>
          <li>
            <strong>Operational logs:</strong> requests to our servers with their time and outcome, kept for a short time to find faults and abuse.
          </li>
        </ul>
        <h2>How long we keep it</h2>
        <p>
          Uploads, their media and their frames are deleted {RETENTION_DAYS} days after upload, unless you delete them sooner from your uploads list,
          in which case they are removed then. Your account and credit records are kept while your account is open; write to us to close it and
          have them deleted.
        </p>
        <h2>Who processes your media</h2>
        <p>
          Frames you send with the Basic engine are read on FrameText’s own servers. Frames you send with the Cloud AI engine are sent to a third-party
          cloud OCR service, Google Cloud Vision, which reads them and returns the text; Google processes them on our behalf under its cloud data
          processing terms. Frames read with the Local engine are processed in your browser and are not uploaded at all; only a record of the upload
          (its name, length and settings) is sent to us so it can be charged and listed.
        </p>
        <h2>What your browser keeps</h2>
        <p>FrameText does not use advertising or tracking cookies. It keeps a few items in your browser’s local storage:</p>
        <ul>
          <li>
            <code>theme</code>: whether you chose the light or dark theme.
          </li>
          <li>
            <code>frametext.session</code>: your sign-in session, so a reload keeps you signed in. Logging out removes it.
          </li>
          <li>
            <code>got_started</code>: that you have seen the getting-started window, so it opens only once.
          </li>
          <li>
            <code>ViewedHowTo</code>: that you have seen the how-to guide of the Numerical results view.
          </li>
        </ul>
        <p>
          Results of the Local engine are saved in your browser’s own database (IndexedDB, named <code>resultsDB</code>) and stay on your device until
          you delete them.
        </p>
        <h2>Your rights</h2>
        <p>
          You can see your uploads and delete them at any time. You can ask us for a copy of the personal data we hold about you, to correct it, or to
          delete it, by writing to the address below; we answer within 30 days.
        </p>
        <h2>Contact</h2>
        <p>
          Privacy questions and requests: <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
        </p>
      </div>
    </article>
  );
}
