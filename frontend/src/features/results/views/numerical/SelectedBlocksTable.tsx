import { formatFrameShare, type BlockSeries } from '@frametext/text-analysis';
import type { Detection } from '@frametext/contracts';

interface Props {
  /** Top of the screen first, as the CSV's columns. */
  rows: readonly BlockSeries[];
  frameCount: number;
  /** Boxes the person can click on the current frame (none: the table does not ask for a click). */
  boxesOnFrame: number;
  /** The current frame's detections. */
  detections: readonly Detection[];
  currentFrame: number;
  editing: number | null;
  onEdit: (uniqueID: number) => void;
  onLock: (uniqueID: number) => void;
  onUnlock: (uniqueID: number) => void;
  onRemove: (uniqueID: number) => void;
}

/**
 * The Selected Blocks table: name, frames with the block, its text on this frame, and Edit/Lock/Unlock/Remove
 * (Remove only while unlocked). Where the table's box is narrow (the side column at 1366 px, a phone) each row is
 * laid out as a card, each cell under its column's name, so nothing sits past the right edge.
 */
export function SelectedBlocksTable({ rows, frameCount, boxesOnFrame, detections, currentFrame, editing, onEdit, onLock, onUnlock, onRemove }: Props) {
  return (
    <section className="card numerical-selected" aria-labelledby="numerical-selected-title">
      <h2 id="numerical-selected-title">Selected Blocks</h2>
      {rows.length === 0 ? (
        <p className="muted">
          {boxesOnFrame > 0
            ? 'No blocks selected yet. Click a box on the frame (or Tab to it and press Enter) to follow its text as a series.'
            : 'No blocks selected yet, and no text was found on this frame to pick from.'}
        </p>
      ) : (
        <div className="table-wrap numerical-selected__wrap">
          <table className="table numerical-selected__table">
            <thead>
              <tr>
                <th scope="col">Block Name</th>
                <th scope="col">Frames with Block</th>
                <th scope="col">Current Frame Text</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {rows.map(({ block, points, indexByFrame, values }) => {
                const count = block.total ?? points.length;
                const index = indexByFrame.get(currentFrame);
                const text = index === undefined ? undefined : detections[index]?.text;
                const isEditing = editing === block.uniqueID;
                return (
                  <tr key={block.uniqueID} className={isEditing ? 'numerical-selected__row--editing' : undefined}>
                    <th scope="row" className="numerical-selected__name">
                      {values.name}
                      {block.locked && <span className="badge numerical-selected__badge">Locked</span>}
                    </th>
                    <td className="num" data-label="Frames with Block">
                      {count} ({formatFrameShare(count, frameCount)})
                    </td>
                    <td className="numerical-selected__text" data-label="Current Frame Text">{text ?? <span className="muted">not on this frame</span>}</td>
                    <td data-label="Actions">
                      <div className="numerical-actions">
                        <button type="button" className="btn btn--secondary btn--sm" aria-expanded={isEditing} aria-label={`${isEditing ? 'Close' : 'Edit'} ${values.name}`} onClick={() => onEdit(block.uniqueID)}>
                          {isEditing ? 'Close' : 'Edit'}
                        </button>
                        {block.locked ? (
                          <button type="button" className="btn btn--secondary btn--sm" aria-label={`Unlock ${values.name}`} onClick={() => onUnlock(block.uniqueID)}>
                            Unlock
                          </button>
                        ) : (
                          <button type="button" className="btn btn--secondary btn--sm" aria-label={`Lock ${values.name}`} onClick={() => onLock(block.uniqueID)}>
                            Lock
                          </button>
                        )}
                        {!block.locked && (
                          <button type="button" className="btn btn--ghost btn--sm numerical-actions__remove" aria-label={`Remove ${values.name}`} onClick={() => onRemove(block.uniqueID)}>
                            Remove
                          </button>
                        )}
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
