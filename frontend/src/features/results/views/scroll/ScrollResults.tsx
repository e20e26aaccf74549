import { useEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { matchPercent, scrollFileName, scrollListFile, type DeduplicatedItems, type ListItem, type ListRow, type RowEdit } from '@frametext/text-analysis';
import { downloadFile } from '../../../../lib/download';
import { frameLabel, frameTime, type ResultsView } from '../../model';

/** Rows drawn at first, and added per "Show more": thousands of rows at once would stall the page. */
export const ROWS_PER_PAGE = 100;

/** What the Detect Items area says once the list is there: "32 items found". */
export const foundMessage = (count: number) => (count === 0 ? 'No items found' : count === 1 ? '1 item found' : `${count} items found`);

const framesText = (count: number) => (count === 1 ? '1 frame' : `${count} frames`);

/** The lines typed in the edit box: one per line, blank lines left out. */
const linesOf = (draft: string) =>
  draft
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');

interface Props {
  view: ResultsView;
  result: DeduplicatedItems;
  ignoreDuplicates: boolean;
  framesScanned: number;
  /** Shows the item's frame with the item outlined. */
  onShow: (item: ListItem) => void;
  /** The list's heading, which Detect Items moves focus to. */
  headingRef?: RefObject<HTMLHeadingElement | null>;
  onEdit: (edit: RowEdit) => void;
  /** Undoes the last correction; null when there is none. */
  onUndo: (() => void) | null;
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

function ItemLines({ texts }: { texts: readonly string[] }) {
  return (
    <>
      {texts.map((text, j) => (
        <span key={j} className="scroll-table__line">
          {text}
        </span>
      ))}
    </>
  );
}

interface RowProps {
  view: ResultsView;
  row: ListRow;
  /** The row above it, which it can be merged into. */
  above: ListRow | null;
  onShow: (item: ListItem) => void;
  onEdit: (edit: RowEdit) => void;
}

/** A row of the unique list: its lines (edited in place), the frames it was seen on, and its corrections. */
function UniqueRow({ view, row, above, onShow, onEdit }: RowProps) {
  const [draft, setDraft] = useState<string | null>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const textBox = useRef<HTMLTextAreaElement>(null);
  // Focus goes into the edit box when it opens, and back to the Edit button when it closes.
  const editing = draft !== null;
  const moveFocus = useRef(false);
  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    (editing ? textBox.current : editButton.current)?.focus();
  }, [editing]);
  const n = row.uniqueId;
  const open = () => {
    moveFocus.current = true;
    setDraft(row.texts.join('\n'));
  };
  const close = () => {
    moveFocus.current = true;
    setDraft(null);
  };
  const save = () => {
    const texts = linesOf(draft ?? '');
    if (texts.length > 0) onEdit({ kind: 'text', ref: row.ref, texts });
    close();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Escape') {
      e.preventDefault();
      close();
    } else if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      save();
    }
  };

  return (
    <tr>
      <td className="num">{n}</td>
      <td>
        <button type="button" className="btn btn--link scroll-table__frame" aria-label={`Show ${frameLabel(view, row.frameIndex)}`} onClick={() => onShow(row)}>
          {frameCell(view, row.frameIndex)}
        </button>
      </td>
      <td className="scroll-table__content">
        {!editing ? (
          <ItemLines texts={row.texts} />
        ) : (
          <div className="scroll-edit">
            <textarea
              className="textarea scroll-edit__text"
              aria-label={`Lines of item ${n}, one per line`}
              rows={Math.max(2, row.texts.length)}
              value={draft ?? ''}
              ref={textBox}
              onChange={(e) => setDraft(e.target.value)}
              onKeyDown={onKeyDown}
            />
            <div className="cluster">
              <button type="button" className="btn btn--primary btn--sm" onClick={save} disabled={linesOf(draft ?? '').length === 0}>
                Save
              </button>
              <button type="button" className="btn btn--ghost btn--sm" onClick={close}>
                Cancel
              </button>
            </div>
          </div>
        )}
      </td>
      <td className="scroll-table__seen">{framesText(row.seenOn)}</td>
      <td className="num">{matchPercent(row.similarity)}</td>
      <td>
        <div className="scroll-table__actions">
          <button ref={editButton} type="button" className="btn btn--ghost btn--sm" aria-label={`Edit item ${n}`} onClick={open} disabled={editing}>
            Edit
          </button>
          {above && (
            <button type="button" className="btn btn--ghost btn--sm" aria-label={`Merge item ${n} into item ${above.uniqueId}`} onClick={() => onEdit({ kind: 'merge', ref: row.ref, into: above.ref })}>
              Merge up
            </button>
          )}
          <button type="button" className="btn btn--ghost btn--sm" aria-label={`Remove item ${n}`} onClick={() => onEdit({ kind: 'remove', ref: row.ref })}>
            Remove
          </button>
        </div>
      </td>
    </tr>
  );
}

/** Statistics, the results table and the CSV and TXT exports of the list shown. */
export function ScrollResults({ view, result, ignoreDuplicates, framesScanned, onShow, headingRef, onEdit, onUndo }: Props) {
  const items: readonly ListItem[] = ignoreDuplicates ? result.unique : result.all;
  const [shown, setShown] = useState(ROWS_PER_PAGE);
  // The other list starts again at its first page (a new detection draws this anew; a correction keeps the page).
  const [listShown, setListShown] = useState(ignoreDuplicates);
  if (listShown !== ignoreDuplicates) {
    setListShown(ignoreDuplicates);
    setShown(ROWS_PER_PAGE);
  }
  // After a row is removed or merged, focus goes to Undo (the row and its buttons are gone).
  const undoButton = useRef<HTMLButtonElement>(null);
  const focusUndo = useRef(false);
  useEffect(() => {
    if (focusUndo.current && onUndo) undoButton.current?.focus();
    focusUndo.current = false;
  }, [onUndo, result]);
  const edit = (change: RowEdit) => {
    focusUndo.current = change.kind !== 'text';
    onEdit(change);
  };

  const exportFile = (format: 'csv' | 'txt') => {
    const file = scrollListFile(view, { items, ignoreDuplicates }, format);
    downloadFile(file.fileName, file.text, format === 'csv' ? 'text/csv;charset=utf-8' : undefined);
  };

  return (
    <section className="card scroll-card scroll-results" aria-labelledby="scroll-results-title">
      <div className="scroll-results__head">
        <h2 id="scroll-results-title" className="scroll-card__title" ref={headingRef} tabIndex={-1}>
          Detected items
        </h2>
        <div className="cluster">
          {onUndo && (
            <button ref={undoButton} type="button" className="btn btn--ghost btn--sm" onClick={onUndo}>
              Undo last change
            </button>
          )}
          <button type="button" className="btn btn--secondary btn--sm" onClick={() => exportFile('csv')} disabled={items.length === 0}>
            Export CSV
          </button>
          <button type="button" className="btn btn--secondary btn--sm" onClick={() => exportFile('txt')} disabled={items.length === 0}>
            Export TXT
          </button>
        </div>
      </div>
      <p className="muted small scroll-results__files">
        Saves {scrollFileName(view.uploadName, ignoreDuplicates, 'csv')} and {scrollFileName(view.uploadName, ignoreDuplicates, 'txt')}: the list
        shown below, with your corrections.
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
          <p className="muted small">
            {ignoreDuplicates
              ? 'One row per item, with its clearest reading. Edit a row, remove it, or merge it into the row above; the exports follow.'
              : 'Every sighting as read. To edit, remove or merge rows, tick Ignore duplicates.'}
          </p>
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
                  {ignoreDuplicates && <th scope="col">Seen on</th>}
                  <th scope="col" className="num">
                    Match
                  </th>
                  {ignoreDuplicates && (
                    <th scope="col">
                      <span className="visually-hidden">Corrections</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {ignoreDuplicates
                  ? result.unique.slice(0, shown).map((row, i) => <UniqueRow key={row.ref} view={view} row={row} above={result.unique[i - 1] ?? null} onShow={onShow} onEdit={edit} />)
                  : result.all.slice(0, shown).map((item, i) => (
                      <tr key={`${item.frameIndex}-${item.bounds.y}`}>
                        <td className="num">{i + 1}</td>
                        <td>
                          <button type="button" className="btn btn--link scroll-table__frame" aria-label={`Show ${frameLabel(view, item.frameIndex)}`} onClick={() => onShow(item)}>
                            {frameCell(view, item.frameIndex)}
                          </button>
                        </td>
                        <td className="scroll-table__content">
                          <ItemLines texts={item.texts} />
                          {item.duplicate && <span className="badge scroll-table__badge">Same as #{item.uniqueId}</span>}
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
