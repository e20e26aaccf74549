import { useState } from 'react';
import { matchPercent, SCROLL_EXPORT_FILES, scrollListFile, type DeduplicatedItems, type ListItem } from '@frametext/text-analysis';
import { downloadFile } from '../../../../lib/download';
import { frameLabel, frameTime, type ResultsView } from '../../model';

/** Rows drawn at first, and added per "Show more": thousands of rows at once would stall the page. */
export const ROWS_PER_PAGE = 100;

interface Props {
  view: ResultsView;
  result: DeduplicatedItems;
  ignoreDuplicates: boolean;
  framesScanned: number;
  /** Shows the item's frame with the item outlined. */
  onShow: (item: ListItem) => void;
}

/** The Frame column: the frame's number, and its time for a video ("3 (0:02)"); the header says it is a frame. */
function frameCell(view: ResultsView, index: number): string {
  const time = frameTime(view, index);
  return time === null ? String(index + 1) : `${index + 1} (${time})`;
}

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <div className="scroll-stat">
      <dt className="muted small">{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

/** Statistics, the results table (#, Frame, Content, Match) and the CSV and TXT exports of the list shown. */
export function ScrollResults({ view, result, ignoreDuplicates, framesScanned, onShow }: Props) {
  const items = ignoreDuplicates ? result.unique : result.all;
  const [shown, setShown] = useState(ROWS_PER_PAGE);
  // A new list starts again at its first page.
  const [listShown, setListShown] = useState(items);
  if (listShown !== items) {
    setListShown(items);
    setShown(ROWS_PER_PAGE);
  }

  const exportCsv = () => {
    const file = scrollListFile(view, { items, ignoreDuplicates }, 'csv');
    downloadFile(file.fileName, file.text, 'text/csv;charset=utf-8');
  };
  const exportTxt = () => {
    const file = scrollListFile(view, { items, ignoreDuplicates }, 'txt');
    downloadFile(file.fileName, file.text);
  };

  return (
    <section className="card scroll-card" aria-labelledby="scroll-results-title">
      <div className="scroll-results__head">
        <h2 id="scroll-results-title" className="scroll-card__title">
          Detected items
        </h2>
        <div className="cluster">
          <button type="button" className="btn btn--secondary btn--sm" onClick={exportCsv} disabled={items.length === 0}>
            Export CSV
          </button>
          <button type="button" className="btn btn--secondary btn--sm" onClick={exportTxt} disabled={items.length === 0}>
            Export TXT
          </button>
        </div>
      </div>
      <p className="muted small scroll-results__files">
        Saves {ignoreDuplicates ? `${SCROLL_EXPORT_FILES.uniqueCsv} and ${SCROLL_EXPORT_FILES.uniqueTxt}` : `${SCROLL_EXPORT_FILES.allCsv} and ${SCROLL_EXPORT_FILES.allTxt}`}: the list
        shown below.
      </p>

      <dl className="scroll-stats" aria-label="Statistics">
        <Stat label="Items found" value={result.all.length} />
        <Stat label="Unique items" value={result.unique.length} />
        <Stat label="Frames scanned" value={framesScanned} />
        <Stat label="Duplicates dropped" value={ignoreDuplicates ? result.all.length - result.unique.length : 0} />
      </dl>

      {items.length === 0 ? (
        <p className="alert alert--info">
          No item matched the template. Check that the box holds one whole item, or lower the minimum similarity and widen the line position tolerance, then press Detect Items again.
        </p>
      ) : (
        <>
          <div className="table-wrap">
            <table className="table scroll-table">
              <caption className="visually-hidden">{ignoreDuplicates ? 'Unique list items' : 'Every item found, duplicates included'}</caption>
              <thead>
                <tr>
                  <th scope="col" className="num">
                    #
                  </th>
                  <th scope="col">Frame</th>
                  <th scope="col">Content</th>
                  <th scope="col" className="num">
                    Match
                  </th>
                </tr>
              </thead>
              <tbody>
                {items.slice(0, shown).map((item, i) => (
                  <tr key={`${item.frameIndex}-${item.bounds.y}`}>
                    <td className="num">{ignoreDuplicates ? item.uniqueId : i + 1}</td>
                    <td>
                      <button type="button" className="btn btn--link scroll-table__frame" aria-label={`Show ${frameLabel(view, item.frameIndex)}`} onClick={() => onShow(item)}>
                        {frameCell(view, item.frameIndex)}
                      </button>
                    </td>
                    <td className="scroll-table__content">
                      {item.texts.map((text, j) => (
                        <span key={j} className="scroll-table__line">
                          {text}
                        </span>
                      ))}
                      {!ignoreDuplicates && item.duplicate && <span className="badge scroll-table__badge">Same as #{item.uniqueId}</span>}
                    </td>
                    <td className="num">{matchPercent(item.similarity)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {items.length > shown && (
            <button type="button" className="btn btn--ghost btn--sm" onClick={() => setShown((n) => n + ROWS_PER_PAGE)}>
              Show {Math.min(ROWS_PER_PAGE, items.length - shown)} more of {items.length - shown}
            </button>
          )}
        </>
      )}
    </section>
  );
}
