import { useRef, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { boxInPixels, type ListItem, type Rect } from '@frametext/text-analysis';
import { pointInSpace, type Space } from '../../components/FrameStage';
import type { WordBox } from './detection';
import { boxAfterKey, boxFromPoints, CORNERS, moveBox, resizeBox, type Corner } from './templateBox';

interface Props {
  space: Space;
  /** The template box, 0..1 of the frame. */
  box: Rect;
  /** A locked box is drawn solid and cannot be moved. */
  locked: boolean;
  onBox: (box: Rect) => void;
  words: readonly WordBox[];
  /** Items found on this frame. */
  items: readonly ListItem[];
  /** The item chosen in the results table, drawn bolder. */
  selected: ListItem | null;
}

type Drag =
  | { kind: 'move'; start: { x: number; y: number }; from: Rect }
  | { kind: 'resize'; corner: Corner }
  | { kind: 'draw'; anchor: { x: number; y: number }; moved: boolean };

/** A drag must cover this share of the frame before it draws a new box (a plain click changes nothing). */
const DRAW_THRESHOLD = 0.005;

const CORNER_NAMES: Record<Corner, string> = { nw: 'top-left', ne: 'top-right', sw: 'bottom-left', se: 'bottom-right' };

/**
 * The item's row in the list, as a filled tag just above the box's top-left corner: it names the row in the table
 * and must not read as text of the list (a green number beside a list's own ranks did).
 */
function RowTag({ x, y, size, text }: { x: number; y: number; size: number; text: string }) {
  const width = size * (0.62 * text.length + 0.8);
  const height = size * 1.3;
  const top = Math.max(0, y - height);
  return (
    <g className="scroll-item__tag">
      <rect x={x} y={top} width={width} height={height} rx={height / 2} />
      <text x={x + width / 2} y={top + height / 2 + size * 0.35} fontSize={size} textAnchor="middle">
        {text}
      </text>
    </g>
  );
}

/**
 * The Scroll view's drawing over the frame: faint outlines of the words, the items found on this frame, and the
 * purple template box. While unlocked the box moves by dragging it, resizes by its corners, and a drag elsewhere on
 * the frame draws a new one; with the keyboard, the focused box moves with the arrow keys and resizes with Shift.
 */
export function TemplateOverlay({ space, box, locked, onBox, words, items, selected }: Props) {
  const drag = useRef<Drag | null>(null);
  const px = boxInPixels(box, space);
  const unit = Math.max(space.width, space.height);
  const handle = unit * 0.012;
  const hit = unit * 0.03;
  const label = Math.max(12, space.height * 0.045);

  const norm = (e: ReactPointerEvent<Element>) => {
    const p = pointInSpace(e, space);
    return { x: p.x / space.width, y: p.y / space.height };
  };
  const begin = (e: ReactPointerEvent<Element>, next: Drag) => {
    if (locked || e.button !== 0) return;
    e.preventDefault();
    e.stopPropagation();
    (e.currentTarget as Element).setPointerCapture?.(e.pointerId);
    drag.current = next;
  };
  const onPointerMove = (e: ReactPointerEvent<SVGGElement>) => {
    const d = drag.current;
    if (!d) return;
    const p = norm(e);
    if (d.kind === 'move') onBox(moveBox(d.from, p.x - d.start.x, p.y - d.start.y));
    else if (d.kind === 'resize') onBox(resizeBox(box, d.corner, p));
    else if (d.moved || Math.abs(p.x - d.anchor.x) > DRAW_THRESHOLD || Math.abs(p.y - d.anchor.y) > DRAW_THRESHOLD) {
      d.moved = true;
      onBox(boxFromPoints(d.anchor, p));
    }
  };
  const end = () => {
    drag.current = null;
  };
  const onKeyDown = (e: KeyboardEvent<SVGGElement>) => {
    if (locked) return;
    const next = boxAfterKey(box, e.key, e.shiftKey);
    if (!next) return;
    e.preventDefault();
    onBox(next);
  };

  return (
    <g onPointerMove={onPointerMove} onPointerUp={end} onPointerCancel={end}>
      <g className="scroll-words" aria-hidden="true">
        {words.map((w, i) => (
          <rect key={i} x={w.rect.x} y={w.rect.y} width={w.rect.w} height={w.rect.h} />
        ))}
      </g>
      {!locked && (
        <rect
          className="scroll-canvas"
          data-testid="scroll-canvas"
          x={0}
          y={0}
          width={space.width}
          height={space.height}
          onPointerDown={(e) => begin(e, { kind: 'draw', anchor: norm(e), moved: false })}
        />
      )}
      <g className="scroll-items" aria-hidden="true">
        {items.map((item) => {
          const chosen = selected !== null && selected.frameIndex === item.frameIndex && selected.bounds.y === item.bounds.y;
          const b = item.bounds;
          return (
            <g key={`${item.frameIndex}-${b.y}`} className={`scroll-item${item.duplicate ? ' scroll-item--duplicate' : ''}${chosen ? ' scroll-item--selected' : ''}`}>
              <rect x={b.x} y={b.y} width={b.w} height={b.h} />
              <RowTag x={b.x} y={b.y} size={label} text={`row ${item.uniqueId}`} />
            </g>
          );
        })}
      </g>
      <g
        className={`scroll-template${locked ? ' scroll-template--locked' : ''}`}
        tabIndex={locked ? -1 : 0}
        role="group"
        aria-label={locked ? 'Template box (locked)' : 'Template box: arrow keys move it, Shift and arrow keys resize it'}
        data-testid="scroll-template"
        onKeyDown={onKeyDown}
      >
        <rect className="scroll-template__focus" x={px.x} y={px.y} width={px.w} height={px.h} />
        <rect
          className="scroll-template__box"
          x={px.x}
          y={px.y}
          width={px.w}
          height={px.h}
          onPointerDown={(e) => begin(e, { kind: 'move', start: norm(e), from: box })}
        />
        {!locked &&
          CORNERS.map((corner) => {
            const cx = corner.endsWith('w') ? px.x : px.x + px.w;
            const cy = corner.startsWith('n') ? px.y : px.y + px.h;
            return (
              <g key={corner} className={`scroll-template__corner scroll-template__corner--${corner}`} onPointerDown={(e) => begin(e, { kind: 'resize', corner })}>
                <title>{`Resize from the ${CORNER_NAMES[corner]} corner`}</title>
                <rect className="scroll-template__hit" x={cx - hit / 2} y={cy - hit / 2} width={hit} height={hit} />
                <rect className="scroll-template__handle" x={cx - handle / 2} y={cy - handle / 2} width={handle} height={handle} />
              </g>
            );
          })}
      </g>
    </g>
  );
}
