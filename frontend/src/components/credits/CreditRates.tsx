import type { Engine, EngineAvailability } from '@frametext/contracts';
import { Skeleton } from '../Skeleton';
import { useGetPublicConfigQuery } from '../../lib/credits/api';

const ENGINE_NAMES: Record<Engine, string> = { server: 'Basic', local: 'Local', cloud: 'Cloud AI' };
const ENGINE_NOTES: Record<Engine, string> = {
  server: 'Tesseract on our servers: clear screens, slides and displays.',
  local: 'Runs in your own browser; your video never leaves your computer.',
  cloud: 'The most accurate reader, for handwriting, small print and busy scenes.',
};
const ORDER: Engine[] = ['server', 'local', 'cloud'];

/** "10 frames per credit", or "1 credit per frame" for engines that cost a credit or more. */
export function rateText(e: Pick<EngineAvailability, 'framesPerCredit' | 'creditsPerFrame'>): string {
  if (e.framesPerCredit > 1) return `${e.framesPerCredit} frames per credit`;
  return `${e.creditsPerFrame} credit${e.creditsPerFrame === 1 ? '' : 's'} per frame`;
}

/** What each engine costs, from the server's public config (Basic 10 frames per credit, Local 20, Cloud AI 1 per frame). */
export function CreditRates() {
  const { data, isLoading } = useGetPublicConfigQuery();
  if (isLoading || !data) return isLoading ? <Skeleton height="6rem" /> : null;
  const engines = ORDER.map((id) => data.engines.find((e) => e.engine === id)).filter((e): e is EngineAvailability => !!e);
  return (
    <div className="table-wrap">
      <table className="table">
        <caption className="visually-hidden">Credit cost by OCR engine</caption>
        <thead>
          <tr>
            <th scope="col">Engine</th>
            <th scope="col">Cost</th>
            <th scope="col">Good for</th>
          </tr>
        </thead>
        <tbody>
          {engines.map((e) => (
            <tr key={e.engine}>
              <th scope="row">{ENGINE_NAMES[e.engine]}</th>
              <td>{rateText(e)}</td>
              <td>
                {ENGINE_NOTES[e.engine]}
                {!e.available && e.reason && <span className="muted small"> {e.reason}</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
