import { useState, type ReactNode, type PointerEvent as ReactPointerEvent } from 'react';
import type { ResultsFrame } from '../model';

export interface Space {
  width: number;
  height: number;
}

interface Props {
  frame: ResultsFrame;
  /** The image's alternative text, e.g. "Frame 3 (0:10)". */
  label: string;
  /** Drawn in an SVG whose coordinates are the frame's space (image pixels), laid exactly over the image. */
  overlay?: (space: Space) => ReactNode;
  /** Lets the overlay take pointer events (drawing, dragging); otherwise clicks go through to the children only. */
  interactive?: boolean;
  className?: string;
}

/**
 * A frame's picture at most half the viewport high, with an overlay in the boxes' own coordinates. The overlay SVG
 * covers exactly the displayed image (the wrapper shrinks to the image), and its viewBox is the coordinate space,
 * so boxes follow the picture at any size without measuring it.
 */
export function FrameStage({ frame, label, overlay, interactive = false, className }: Props) {
  const [natural, setNatural] = useState<{ url: string; width: number; height: number } | null>(null);
  const space = frame.space ?? (natural && natural.url === frame.imageUrl ? natural : null);

  return (
    <div className={`frame-stage${className ? ` ${className}` : ''}`}>
      {frame.imageUrl ? (
        <div className="frame-stage__picture">
          <img
            key={frame.imageUrl}
            src={frame.imageUrl}
            alt={label}
            draggable={false}
            onLoad={(e) => {
              const img = e.currentTarget;
              if (frame.imageUrl) setNatural({ url: frame.imageUrl, width: img.naturalWidth, height: img.naturalHeight });
            }}
          />
          {overlay && space && space.width > 0 && space.height > 0 && (
            <svg
              className={`frame-stage__overlay${interactive ? ' frame-stage__overlay--interactive' : ''}`}
              viewBox={`0 0 ${space.width} ${space.height}`}
              preserveAspectRatio="none"
              data-testid="frame-overlay"
            >
              {overlay(space)}
            </svg>
          )}
        </div>
      ) : (
        <div className="frame-stage__placeholder">No picture for this frame</div>
      )}
    </div>
  );
}

/**
 * Where a pointer event falls in the overlay's coordinate space (the SVG's viewBox), from the event's target's
 * nearest SVG. Use in overlay handlers: `const p = pointInSpace(e, space)`.
 */
export function pointInSpace(event: ReactPointerEvent<Element> | PointerEvent, space: Space): { x: number; y: number } {
  const target = event.currentTarget instanceof Element ? event.currentTarget : (event.target as Element);
  const svg = target instanceof SVGSVGElement ? target : target.closest('svg');
  const rect = (svg ?? target).getBoundingClientRect();
  const x = rect.width > 0 ? ((event.clientX - rect.left) / rect.width) * space.width : 0;
  const y = rect.height > 0 ? ((event.clientY - rect.top) / rect.height) * space.height : 0;
  return { x, y };
}
