import { Link } from 'react-router-dom';
import { SUPPORT_EMAIL } from '../../lib/contact';
import './content.css';

export default function AboutPage() {
  return (
    <article className="content-page">
      <header className="content-header">
        <h1>About FrameText</h1>
        <p className="content-lead">FrameText reads the text and numbers that appear in videos and photos and gives them back as data you can use.</p>
      </header>
      <div className="post-body">
        <h2>Why it exists</h2>
        <p>
          A surprising amount of useful information only ever exists on a screen: the power curve on a charger, the telemetry on a launch webcast, the
          slides of a recorded lecture, the subtitles burned into a clip, the orders in an app that will not export them. Copying it by hand is slow
          and error-prone, and general-purpose OCR tools treat a video as a pile of unrelated pictures. FrameText was built to treat it as what it is:
          the same screen, changing over time.
        </p>
        <h2>How it works</h2>
        <p>
          You upload a video, a photo or a series of photos and choose how often to look. FrameText cuts the video into frames at that interval, reads
          every frame with the engine you picked, and keeps where each piece of text was and when. The results page then lets you look at the same
          data four ways: as slide text (Presentation), as values followed from frame to frame (Numerical), as the text inside boxes you draw (Region),
          or as items matched down a scrolled list (Scroll). Whatever you select exports as CSV or TXT.
        </p>
        <h2>Who uses it</h2>
        <ul>
          <li>Researchers who need measurements from instruments and screens that were only ever filmed.</li>
          <li>Educators and students turning lectures and launch footage into material they can study and plot.</li>
          <li>Content creators and analysts collecting captions, rankings and on-screen figures from video.</li>
        </ul>
        <h2>How we charge</h2>
        <p>
          You pay for frames read, with credits, and never for a subscription. The three engines cost different amounts per frame, and the wizard
          shows the exact cost before anything is uploaded. Details are on the <Link to="/">home page</Link>.
        </p>
        <h2>Get in touch</h2>
        <p>
          Questions, bug reports and ideas are welcome at <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>. The <Link to="/blog">blog</Link> has
          walk-throughs for the most common jobs.
        </p>
      </div>
    </article>
  );
}
