import { Link } from 'react-router-dom';

/** The in-browser OCR page has an issue of its own; until it lands, say so plainly and offer the server engine. */
export default function LocalPage() {
  return (
    <section className="page container stack">
      <h1>Local OCR</h1>
      <p>Reading text in your own browser, without uploading the video, is not available in this version yet.</p>
      <p>
        Meanwhile the <strong>Basic</strong> engine reads 10 frames per credit on our servers: <Link to="/upload">start a new upload</Link>.
      </p>
    </section>
  );
}
