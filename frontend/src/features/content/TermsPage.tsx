import { RETENTION_DAYS } from '@frametext/contracts/rules';
import { Link } from 'react-router-dom';
import { SUPPORT_EMAIL } from '../../lib/contact';
import './content.css';

export default function TermsPage() {
  return (
    <article className="content-page">
      <header className="content-header">
        <h1>Terms of Service</h1>
        <p className="content-muted">Last updated: September 1, 2025</p>
      </header>
      <div className="post-body">
        <p>
          These terms apply when you use FrameText, the website and service that reads text and numbers from videos and photos. By creating an account
          or using the service you agree to them. If you do not agree, please do not use FrameText.
        </p>
        <h2>1. Your account</h2>
        <p>
          You need an account to upload media. Keep your password to yourself; you are responsible for what is done with your account. You must give
          an e-mail address you can receive mail at, since password resets are sent there. You may close your account at any time by writing to us.
        </p>
        <h2>2. Your content</h2>
        <p>
          You keep every right you have in the media you upload and in the results. You give FrameText permission to store, process and display that
          media only as needed to provide the service to you, including passing frames to the OCR engine you choose. You must have the right to
          upload what you upload: do not upload material you are not allowed to copy, or that contains other people’s personal data without a
          lawful reason.
        </p>
        <h2>3. Acceptable use</h2>
        <ul>
          <li>Do not use FrameText for anything unlawful, or to process material that is illegal to possess.</li>
          <li>Do not try to get around credit charges, limits or access controls, or to reach other users’ uploads.</li>
          <li>Do not overload the service with automated requests beyond normal use of the web application.</li>
        </ul>
        <h2>4. Credits and payment</h2>
        <p>
          Processing is paid for with credits. The cost of an upload depends on the number of frames and the engine, and is shown before you upload.
          New accounts receive a number of free credits, which may change over time. Purchased credits do not expire while your account is open.
          Because credits are consumed when frames are processed, purchases are not refundable, except where the law requires it or where an upload
          failed on our side; if that happens, write to us and we will restore the credits.
        </p>
        <h2>5. Retention</h2>
        <p>
          Uploads and their media are deleted automatically {RETENTION_DAYS} days after upload, or earlier if you delete them. Download the exports you
          want to keep. See the <Link to="/privacy-policy">Privacy Policy</Link> for details.
        </p>
        <h2>6. Accuracy</h2>
        <p>
          Optical character recognition is never perfect. FrameText is provided as is, without warranty that results are complete or correct. Check
          results before you rely on them, especially for decisions involving money, health or safety.
        </p>
        <h2>7. Availability and changes</h2>
        <p>
          We work to keep FrameText available but cannot promise it will be uninterrupted. Some engines may be unavailable on a given server; the
          application tells you when that is the case. We may change these terms; when a change is significant we will say so on the site before it
          takes effect.
        </p>
        <h2>8. Liability</h2>
        <p>
          To the extent the law allows, FrameText is not liable for indirect or consequential losses, and its total liability to you is limited to
          the amount you paid for credits in the twelve months before the claim.
        </p>
        <h2>9. Contact</h2>
        <p>
          Questions about these terms: <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>.
        </p>
      </div>
    </article>
  );
}
