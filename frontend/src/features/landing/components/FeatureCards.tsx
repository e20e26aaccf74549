import { FEATURE_CARDS } from '../content';

export function FeatureCards() {
  return (
    <section className="landing-section" aria-labelledby="landing-features">
      <h2 id="landing-features">Built for people who need the numbers, not the video</h2>
      <ul className="landing-grid landing-grid--three">
        {FEATURE_CARDS.map((feature) => (
          <li key={feature.title} className="landing-card">
            <h3>{feature.title}</h3>
            <p>{feature.text}</p>
          </li>
        ))}
      </ul>
    </section>
  );
}
