import { memo, useMemo } from 'react';
import { NUMERICAL_CSV_FILE, numericalCsv, numericalRows, type ExportFrame, type SeriesValues } from '@frametext/text-analysis';
import { downloadFile } from '../../../../lib/download';

interface Props {
  frames: readonly ExportFrame[];
  /** Selected series (any order: the table and the file order them top to bottom on screen). */
  series: readonly SeriesValues[];
}

/** The Results to Export table (Frame, Time, a column per series, cleaned values) and "Export as csv". */
export const ExportTable = memo(function ExportTable({ frames, series }: Props) {
  const [header, ...rows] = useMemo(() => numericalRows(frames, series), [frames, series]);
  const exportCsv = () => downloadFile(NUMERICAL_CSV_FILE, numericalCsv(frames, series), 'text/csv;charset=utf-8');

  return (
    <section className="card numerical-export" aria-labelledby="numerical-export-title">
      <div className="numerical-section__head">
        <h2 id="numerical-export-title">Results to Export</h2>
        {series.length > 0 && (
          <button type="button" className="btn btn--primary btn--sm" onClick={exportCsv}>
            Export as csv
          </button>
        )}
      </div>
      {series.length === 0 && <p className="muted small">Select blocks to see their values for every frame here.</p>}
      <div className="table-wrap numerical-export__scroll" tabIndex={0} role="region" aria-label="Results to Export, scrollable">
        <table className="table numerical-export__table">
          <thead>
            <tr>
              {header!.map((name, i) => (
                <th key={i} scope="col">
                  {name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => (
              <tr key={row[0]}>
                {row.map((cell, i) => (i === 0 ? <th key={i} scope="row">{cell}</th> : <td key={i}>{cell}</td>))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
});
