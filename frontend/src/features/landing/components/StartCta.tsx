import { Link } from 'react-router-dom';

export function StartCta({ signedIn }: { signedIn: boolean }) {
  return (
    <section className="landing-cta" aria-labelledby="landing-start">
      <h2 id="landing-start">Have a video full of numbers?</h2>
      <p>Upload it, choose how often to look, and download the table.</p>
      <Link className="btn btn--primary btn--lg" to={signedIn ? '/upload' : '/login'}>
        Start Textracting
      </Link>
    </section>
  );
}
