import { CREDIT_RATES } from '@frametext/contracts/rules';
import type { EngineAvailability } from '@frametext/contracts';
import { useGetPublicConfigQuery } from '../../../lib/credits/api';
import { ENGINE_COPY } from '../content';

/** Frames one credit pays for; the server's figure when it has answered, the product's rate until then. */
function framesPerCredit(rate: number, reported?: EngineAvailability): number {
  return reported?.framesPerCredit ?? Math.round(1 / rate);
}

export function EngineComparison() {
  const { data: config } = useGetPublicConfigQuery();

  return (
    <section className="landing-section" aria-labelledby="landing-engines">
      <h2 id="landing-engines">Three engines, one price list</h2>
      <p className="landing-section__lead">
        Every frame FrameText reads costs a fraction of a credit, depending on the engine. The wizard shows the exact cost before you upload.
      </p>
      <ul className="landing-grid landing-grid--three">
        {ENGINE_COPY.map((copy) => {
          const reported = config?.engines.find((e) => e.engine === copy.engine);
          const frames = framesPerCredit(CREDIT_RATES[copy.engine], reported);
          return (
            <li key={copy.engine} className="landing-card landing-engine" aria-label={copy.name}>
              <h3>{copy.name}</h3>
              <p className="landing-engine__rate">
                <strong>{frames}</strong> {frames === 1 ? 'frame' : 'frames'} per credit
              </p>
              <p>{copy.goodAt}</p>
              <p className="landing-card__muted">{copy.where}</p>
              {reported && !reported.available && (
                <p className="landing-engine__unavailable">
                  Not available on this server{reported.reason ? `: ${reported.reason}` : '.'}
                </p>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
