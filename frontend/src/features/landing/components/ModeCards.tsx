import { Link } from 'react-router-dom';
import { MODE_CARDS } from '../content';

export function ModeCards() {
  return (
    <section className="landing-section" aria-labelledby="landing-modes">
      <h2 id="landing-modes">Four ways to read a frame</h2>
      <p className="landing-section__lead">Choose how FrameText should look at your media; you can switch views on the results page afterwards.</p>
      <ul className="landing-grid landing-grid--four">
        {MODE_CARDS.map((mode) => (
          <li key={mode.title} className="landing-card">
            <h3>{mode.title}</h3>
            <p className="landing-card__tagline">{mode.tagline}</p>
            <p>{mode.text}</p>
            {mode.post && (
              <Link className="landing-card__link" to={mode.post.href}>
                {mode.post.label}
              </Link>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
