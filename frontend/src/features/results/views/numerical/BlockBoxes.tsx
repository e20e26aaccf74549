import type { Detection } from '@frametext/contracts';

export type BoxState = 'selected' | 'locked' | 'free';

export interface FrameBox {
  index: number;
  detection: Detection;
  state: BoxState;
}

interface Props {
  boxes: readonly FrameBox[];
  /** The block focused or hovered in the list beside the picture, outlined more strongly. */
  highlight: number | null;
  onPick: (index: number) => void;
}

/**
 * The current frame's tracked blocks over the picture (in FrameStage's SVG, image pixels): green for a selected,
 * unlocked block, red otherwise (dashed when locked). Clicking a box picks its block; a locked block's box does
 * nothing. Keyboard and screen reader users pick the same blocks from the list beside the picture
 * (FrameBlocksList), which outlines the block it has in focus here.
 */
export function BlockBoxes({ boxes, highlight, onPick }: Props) {
  return (
    <g className="numerical-boxes" aria-hidden="true">
      {boxes.map(({ index, detection, state }) => (
        <polygon
          key={index}
          data-block={index}
          data-text={detection.text}
          className={[
            'numerical-box',
            state === 'selected' ? 'numerical-box--green' : 'numerical-box--red',
            state === 'locked' ? 'numerical-box--locked' : '',
            highlight === index ? 'numerical-box--highlight' : '',
          ]
            .filter(Boolean)
            .join(' ')}
          points={detection.vertices.map((v) => `${v.x},${v.y}`).join(' ')}
          onClick={() => onPick(index)}
        >
          <title>{detection.text}</title>
        </polygon>
      ))}
    </g>
  );
}
