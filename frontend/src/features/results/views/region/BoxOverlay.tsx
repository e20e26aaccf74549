import { useRef, useState, type KeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { boundsOf, moveRect, rectAfterKey, rectBetween, rectContains, rectInPixels, resizeRect, type BoxId, type Corner, type Rect, type SelectionBox, type TextBlock, type TextZone } from '@frametext/text-analysis';
import { pointInSpace, type Space } from '../../components/FrameStage';

interface Props {
  space: Space;
  boxes: readonly SelectionBox[];
  selected: BoxId;
  /** The current frame's blocks after the filters, outlined so the user sees what a box would take. */
  blocks: readonly TextBlock[];
  /** Where the upload's text sits, outlined faintly so the person sees where boxes could go. */
  zones: readonly TextZone[];
  /** Id of the element explaining the mouse and keyboard controls. */
  hintId: string;
  onSelect: (id: BoxId) => void;
  onChange: (id: BoxId, rect: Rect) => void;
}

type Mode = 'move' | 'draw' | Corner;
interface Drag {
  id: BoxId;
  mode: Mode;
  from: { x: number; y: number };
  start: Rect;
  pointerId: number;
  latest: Rect | null;
}

const CORNERS: Corner[] = ['nw', 'ne', 'sw', 'se'];

/**
 * The boxes over the frame, in the frame's pixel space (FrameStage's SVG). Drag a box to move it, a corner of the
 * selected box to resize it, or the picture to draw the selected box afresh; with a box focused, arrow keys move it
 * and Shift + arrows resize it. The box follows the pointer locally and is committed when the pointer is released,
 * so the readings of every frame are computed once per gesture.
 */
export function BoxOverlay({ space, boxes, selected, blocks, zones, hintId, onSelect, onChange }: Props) {
  const drag = useRef<Drag | null>(null);
  const [draft, setDraft] = useState<{ id: BoxId; rect: Rect } | null>(null);
  const unit = Math.max(space.width, space.height);
  const handle = unit * 0.022;
  const toNorm = (e: ReactPointerEvent<Element>) => {
    const p = pointInSpace(e, space);
    return { x: p.x / space.width, y: p.y / space.height };
  };

  const begin = (e: ReactPointerEvent<SVGElement>, id: BoxId, mode: Mode) => {
    if (e.button !== 0) return;
    e.stopPropagation();
    e.currentTarget.setPointerCapture?.(e.pointerId);
    const from = toNorm(e);
    const box = boxes.find((b) => b.id === id);
    drag.current = { id, mode, from, start: box?.norm ?? rectBetween(from, from), pointerId: e.pointerId, latest: null };
    onSelect(id);
  };
  const follow = (e: ReactPointerEvent<SVGElement>) => {
    const d = drag.current;
    if (!d || e.pointerId !== d.pointerId) return;
    const p = toNorm(e);
    const dx = p.x - d.from.x;
    const dy = p.y - d.from.y;
    d.latest = d.mode === 'move' ? moveRect(d.start, dx, dy) : d.mode === 'draw' ? rectBetween(d.from, p) : resizeRect(d.start, d.mode, dx, dy);
    setDraft({ id: d.id, rect: d.latest });
  };
  const end = (e: ReactPointerEvent<SVGElement>) => {
    const d = drag.current;
    if (!d || e.pointerId !== d.pointerId) return;
    drag.current = null;
    setDraft(null);
    if (d.latest) onChange(d.id, d.latest);
  };
  const onKey = (box: SelectionBox, e: KeyboardEvent<SVGGElement>) => {
    if (!box.norm) return;
    const next = rectAfterKey(box.norm, e.key, e.shiftKey);
    if (!next) return;
    e.preventDefault();
    onChange(box.id, next);
  };

  const shown = boxes
    .filter((b) => b.enabled || draft?.id === b.id)
    .map((b) => ({ ...b, norm: draft?.id === b.id ? draft.rect : b.norm }))
    .filter((b): b is SelectionBox & { norm: Rect } => b.norm !== null)
    // The selected box last, so it is drawn on top and its handles are never covered.
    .sort((a, b) => Number(a.id === selected) - Number(b.id === selected));
  const placed = shown.map((b) => ({ box: b, px: rectInPixels(b.norm, space.width, space.height) }));
  const owner = (block: TextBlock) => {
    const r = boundsOf(block.vertices);
    return [...placed].reverse().find((p) => rectContains(p.px, r))?.box.colour;
  };

  return (
    <g onPointerMove={follow} onPointerUp={end} onPointerCancel={end} className="region-overlay">
      <rect x={0} y={0} width={space.width} height={space.height} fill="transparent" pointerEvents="all" className="region-overlay__canvas" onPointerDown={(e) => begin(e, selected, 'draw')} />
      {zones.map((zone) => {
        const px = rectInPixels(zone.rect, space.width, space.height);
        return <rect key={zone.name} className="region-zone" x={px.x} y={px.y} width={px.w} height={px.h} pointerEvents="none" data-zone={zone.name} />;
      })}
      {blocks.map((block, i) => {
        const colour = owner(block);
        return (
          <polygon
            key={i}
            points={block.vertices.map((v) => `${v.x},${v.y}`).join(' ')}
            className={colour ? 'region-block region-block--inside' : 'region-block'}
            style={colour ? { stroke: colour } : undefined}
            pointerEvents="none"
          />
        );
      })}
      {placed.map(({ box, px }) => {
        const isSelected = box.id === selected;
        return (
          <g
            key={box.id}
            className={`region-box${isSelected ? ' region-box--selected' : ''}`}
            tabIndex={0}
            role="button"
            aria-label={`${box.name} box`}
            aria-pressed={isSelected}
            aria-describedby={hintId}
            onFocus={() => onSelect(box.id)}
            onKeyDown={(e) => onKey(box, e)}
          >
            <rect
              className="region-box__body"
              x={px.x}
              y={px.y}
              width={px.w}
              height={px.h}
              fill={box.colour}
              stroke={box.colour}
              data-box={box.name}
              onPointerDown={(e) => {
                begin(e, box.id, 'move');
                (e.currentTarget.parentNode as SVGGElement | null)?.focus({ preventScroll: true });
              }}
            />
            <text className="region-box__name" x={px.x + handle * 0.6} y={px.y + handle * 1.4} fontSize={handle * 1.1} fill={box.colour} pointerEvents="none">
              {box.name}
            </text>
            {isSelected &&
              CORNERS.map((corner) => (
                <rect
                  key={corner}
                  className={`region-box__handle region-box__handle--${corner}`}
                  x={(corner.endsWith('w') ? px.x : px.x + px.w) - handle / 2}
                  y={(corner.startsWith('n') ? px.y : px.y + px.h) - handle / 2}
                  width={handle}
                  height={handle}
                  fill={box.colour}
                  data-corner={corner}
                  onPointerDown={(e) => begin(e, box.id, corner)}
                />
              ))}
          </g>
        );
      })}
    </g>
  );
}
