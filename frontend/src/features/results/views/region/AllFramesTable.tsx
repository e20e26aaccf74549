import { memo, useMemo } from 'react';
import { REGION_LINE_JOINER, clockDecimals, formatClock, type RegionExportFrame } from '@frametext/text-analysis';

interface Props {
  boxNames: readonly string[];
  readings: readonly RegionExportFrame[];
  current: number;
  onFrame: (index: number) => void;
}

const Row = memo(function Row({ reading, decimals, current, onFrame }: { reading: RegionExportFrame; decimals: number; current: boolean; onFrame: (index: number) => void }) {
  return (
    <tr className={current ? 'region-table__current' : undefined} aria-current={current ? 'true' : undefined}>
      <td className="num">
        <button type="button" className="btn btn--link region-table__frame" onClick={() => onFrame(reading.number - 1)} aria-label={`Show frame ${reading.number}`}>
          {reading.number}
        </button>
      </td>
      <td className="num">{formatClock(reading.t, decimals)}</td>
      {reading.boxes.map((lines, i) => (
        <td key={i}>{lines.join(REGION_LINE_JOINER)}</td>
      ))}
    </tr>
  );
});

/** Every frame's text per box (Frame, Time, one column per enabled box); a frame number opens that frame. */
export function AllFramesTable({ boxNames, readings, current, onFrame }: Props) {
  // Tenths of a second when frames are under a second apart, as the Region CSV shows them.
  const decimals = useMemo(() => clockDecimals(readings.map((r) => r.t)), [readings]);
  return (
    <section className="region-table" aria-labelledby="region-table-title">
      <h2 id="region-table-title" className="region-side__title">
        All frames
      </h2>
      <div className="table-wrap region-table__scroll" tabIndex={0} role="region" aria-label="All frames, scrollable">
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Frame</th>
              <th scope="col">Time</th>
              {boxNames.map((name) => (
                <th key={name} scope="col">
                  {name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {readings.map((r) => (
              <Row key={r.number} reading={r} decimals={decimals} current={r.number - 1 === current} onFrame={onFrame} />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
