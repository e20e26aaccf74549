import { memo, useMemo, useState } from 'react';
import { nextUnsure, usualBox, numericalCsv, numericalFileName, numericalRows, numericalTxt, unsureCells, type CellRef, type CorrectionAction, type ExportFrame, type ProofSeries } from '@frametext/text-analysis';
import { downloadFile } from '../../../../lib/download';
import type { ResultsFrame } from '../../model';
import { CellProofreader } from './CellProofreader';

interface Props {
  /** Names the files: `<upload name>-results.csv` and `.txt`. */
  uploadName: string;
  frames: readonly ExportFrame[];
  /** The view's frames: pictures and blocks for the crops. */
  pictures: readonly ResultsFrame[];
  frameLabel: (index: number) => string;
  /** Selected series, top of the screen first, with their corrections and unsure cells. */
  proof: readonly ProofSeries[];
  onCorrection: (action: CorrectionAction) => void;
  /** Shows a frame in the viewer (the frame of the cell being checked). */
  onShowFrame: (index: number) => void;
  onExportJson: () => void;
}

interface Column {
  proof: ProofSeries;
  /** The "(original)" column of a translated series: shown, not proofread. */
  original: boolean;
}

interface ValueCellProps {
  proof: ProofSeries;
  frame: number;
  text: string;
  open: boolean;
  onToggle: () => void;
}

/**
 * One value of a series, as a button that opens the proofreader: with its confidence or "corrected" under it, in
 * orange when unsure (a blank between two values too), the reasons as its tooltip. Any cell can be opened and
 * corrected, a blank one included.
 */
function ValueCell({ proof: p, frame, text, open, onToggle }: ValueCellProps) {
  const reasons = p.reasons[frame] ?? [];
  const confidence = p.confidences[frame];
  const corrected = p.corrected[frame] ?? false;
  const state = corrected ? 'corrected' : reasons.length > 0 ? 'unsure' : 'sure';
  const confidenceText = confidence === null || confidence === undefined ? null : `${Math.round(confidence)} %`;
  const tip = corrected ? `Corrected (read as “${p.readings[frame] || 'nothing'}”)` : reasons.length > 0 ? reasons.join('; ') : confidenceText ? `confidence ${confidenceText}` : undefined;
  const note = corrected ? 'corrected' : (confidenceText ?? (state === 'unsure' && !text ? 'blank' : null));
  return (
    <td className={`numerical-cell numerical-cell--${state}${open ? ' numerical-cell--open' : ''}`}>
      <button
        type="button"
        className="numerical-cell__button"
        title={tip}
        aria-label={`${p.series.name}, frame ${frame + 1}: ${text || 'no value'}${tip ? ` (${state === 'sure' ? tip : `${state}: ${tip}`})` : ''}`}
        aria-pressed={open}
        data-state={state}
        onClick={onToggle}
      >
        <span className="numerical-cell__value">{text || '–'}</span>
        {note && <span className="numerical-cell__note">{note}</span>}
      </button>
    </td>
  );
}

/**
 * The Results to Export table (Frame, Time, a column per series) with each reading's confidence, the unsure
 * readings marked, and the proofreader: clicking a value shows its crop of the frame and takes a correction.
 * "Export as csv", "Export as txt" and "Export as JSON" save the values as corrected.
 */
export const ExportTable = memo(function ExportTable({ uploadName, frames, pictures, frameLabel, proof, onCorrection, onShowFrame, onExportJson }: Props) {
  const series = useMemo(() => proof.map((p) => p.series), [proof]);
  const [header, ...rows] = useMemo(() => numericalRows(frames, series), [frames, series]);
  const columns = useMemo(() => proof.flatMap((p): Column[] => (p.series.originals ? [{ proof: p, original: false }, { proof: p, original: true }] : [{ proof: p, original: false }])), [proof]);
  const unsureCount = useMemo(() => unsureCells(proof, frames.length).length, [proof, frames.length]);
  const [open, setOpen] = useState<CellRef | null>(null);
  const openProof = open ? proof.find((p) => p.id === open.seriesId) : undefined;
  const detections = useMemo(() => pictures.map((f) => f.detections), [pictures]);
  const usual = useMemo(() => (openProof ? usualBox(detections, openProof.row.points) : null), [detections, openProof]);
  const exportCsv = () => downloadFile(numericalFileName(uploadName, 'csv'), numericalCsv(frames, series), 'text/csv;charset=utf-8');
  const exportTxt = () => downloadFile(numericalFileName(uploadName, 'txt'), numericalTxt(frames, series));

  const show = (cell: CellRef | null) => {
    setOpen(cell);
    if (cell) onShowFrame(cell.frame);
  };
  const next = () => show(nextUnsure(proof, frames.length, open));

  const cell = (column: Column, frame: number, text: string) => {
    const { proof: p } = column;
    if (column.original) return <td key={`${p.id}o`}>{text}</td>;
    const isOpen = open?.seriesId === p.id && open.frame === frame;
    return <ValueCell key={p.id} proof={p} frame={frame} text={text} open={isOpen} onToggle={() => show(isOpen ? null : { seriesId: p.id, frame })} />;
  };

  return (
    <section className="card numerical-export" aria-labelledby="numerical-export-title">
      <div className="numerical-section__head">
        <h2 id="numerical-export-title">Results to Export</h2>
        {series.length > 0 && (
          <div className="numerical-actions">
            <button type="button" className="btn btn--secondary btn--sm" onClick={next} disabled={unsureCount === 0}>
              Next unsure value{unsureCount > 0 ? ` (${unsureCount})` : ''}
            </button>
            <button type="button" className="btn btn--primary btn--sm" onClick={exportCsv}>
              Export as csv
            </button>
            <button type="button" className="btn btn--secondary btn--sm" onClick={exportTxt}>
              Export as txt
            </button>
            <button type="button" className="btn btn--secondary btn--sm" onClick={onExportJson}>
              Export as JSON
            </button>
          </div>
        )}
      </div>
      {series.length === 0 && <p className="muted small">Select blocks to see their values for every frame here.</p>}
      {series.length > 0 && (
        <p className="muted small">
          Under each value, the confidence it was read with. Values marked in orange look unsure (low confidence, far off the values around it, a
          letter in a number, or blank between two values): click one to check it against the picture and correct it.
        </p>
      )}
      {series.length > 0 && (
        <p className="numerical-export__count" role="status">
          {unsureCount === 0 ? 'No unsure values.' : `${unsureCount} unsure ${unsureCount === 1 ? 'value' : 'values'}`}
        </p>
      )}
      {open && openProof && pictures[open.frame] && (
        <CellProofreader
          key={`${open.seriesId}:${open.frame}`}
          frame={pictures[open.frame]!}
          frameLabel={frameLabel(open.frame)}
          proof={openProof}
          unsureLeft={unsureCount}
          usual={usual}
          onSave={(value) => {
            onCorrection({ type: 'corrected', seriesId: open.seriesId, frame: open.frame, value });
            // The saved cell is no longer unsure: the next one is looked for among the others.
            const after = nextUnsure(proof, frames.length, open);
            show(after && !(after.seriesId === open.seriesId && after.frame === open.frame) ? after : null);
          }}
          onRevert={() => onCorrection({ type: 'reverted', seriesId: open.seriesId, frame: open.frame })}
          onNext={next}
          onClose={() => setOpen(null)}
        />
      )}
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
            {rows.map((row, frame) => (
              <tr key={row[0]}>
                <th scope="row">{row[0]}</th>
                <td>{row[1]}</td>
                {columns.map((column, i) => cell(column, frame, row[i + 2] ?? ''))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
});
