import { describe, expect, it } from 'vitest';
import { rectContains, rectVertices, type Rect, type TextBlock } from './geometry.js';
import { defaultRect } from './region-boxes.js';
import { captionBand, defaultCaptionBox, textZones, zoneName, type ZoneFrame } from './text-zones.js';

/*
 * Detections as the Basic engine gives them for a 1280x720 video read every 0.5 s: LINE blocks in pixels, with a
 * confidence; a caption line's box runs from its capitals' tops to its descenders' bottoms.
 */
const SPACE = { width: 1280, height: 720 };
const line = (text: string, x: number, y: number, w: number, h: number, confidence = 93): TextBlock => ({
  text,
  confidence,
  vertices: rectVertices({ x, y, w, h }),
});

/** A caption centred on the frame, its last line's top at `lastTop`; each line 21 px wide per character. */
function caption(text: string, lastTop: number, confidence = 93): TextBlock[] {
  const lines = text.split('\n');
  return lines.map((row, i) => {
    const w = Math.min(1240, row.length * 21);
    return line(row, (1280 - w) / 2, lastTop - (lines.length - 1 - i) * 50, w, 46, confidence);
  });
}

const CAPTIONS = [
  'Good evening, everybody',
  '',
  'Tonight we go up the frozen valley, past the glacier and the pylons',
  'Tonight we go up the frozen valley, past the glacier and the pylons',
  'Keep going, says Peggy',
  'Keep going, says Peggy',
  '',
  'Everybody pays, apparently, by tonight\nor the gypsy caravan gets away',
  'Everybody pays, apparently, by tonight\nor the gypsy caravan gets away',
  'Yes, agreed',
  '',
  'Sparkling lights glow up ahead',
];

/** Each frame: the caption (if any) and, on every frame, still text where `still` puts it. */
const frames = (lastTop: number, still: TextBlock[]): ZoneFrame[] => CAPTIONS.map((text) => ({ blocks: [...still, ...(text ? caption(text, lastTop) : [])], space: SPACE }));

const LOGO = line('NEWS 24', 1090, 26, 150, 38, 96);
const normalised = (b: TextBlock): Rect => {
  const [a, , c] = b.vertices;
  return { x: a!.x / 1280, y: a!.y / 720, w: (c!.x - a!.x) / 1280, h: (c!.y - a!.y) / 720 };
};

describe('text zones', () => {
  it('finds captions low in the frame as a changing bottom band, and a static logo in a corner as still text', () => {
    const upload = frames(650, [LOGO]);
    const zones = textZones(upload);
    expect(zones.map((z) => [z.name, z.changing])).toEqual([
      ['bottom band', true],
      ['top-right corner', false],
    ]);
    const band = captionBand(zones)!;
    // Every caption line lies wholly inside the band, descenders and the ends of the longest lines included.
    for (const f of upload) for (const b of f.blocks.filter((b) => b !== LOGO)) expect(rectContains(band, normalised(b)), b.text).toBe(true);
    // ... with room below the lowest descender, and the logo left out.
    expect(band.y + band.h).toBeGreaterThan((650 + 46) / 720);
    expect(rectContains(band, normalised(LOGO))).toBe(false);
    expect(defaultCaptionBox(zones)).toEqual(band);
  });

  it('finds captions at the top of the frame, beside a logo in a bottom corner', () => {
    const corner = line('channel.tv', 1050, 660, 190, 36, 95);
    const zones = textZones(frames(60, [corner]));
    expect(zones.map((z) => [z.name, z.changing])).toEqual([
      ['top band', true],
      ['bottom-right corner', false],
    ]);
    const band = captionBand(zones)!;
    expect(band.y).toBe(0);
    expect(band.y + band.h).toBeLessThan(0.25);
  });

  it('falls back to where the first box always started when no text changes', () => {
    const still = CAPTIONS.map(() => ({ blocks: [LOGO, line('Live from the summit', 400, 600, 480, 44)], space: SPACE }));
    const zones = textZones(still);
    expect(zones.every((z) => !z.changing)).toBe(true);
    expect(zones.map((z) => z.name)).toEqual(['top-right corner', 'bottom centre']);
    expect(captionBand(zones)).toBeNull();
    expect(defaultCaptionBox(zones)).toEqual(defaultRect(0));
    expect(defaultCaptionBox(textZones([]))).toEqual(defaultRect(0));
  });

  it('keeps the top line of a few two-line captions in the band (still text there, but seen on few frames)', () => {
    const texts = ['One line here', 'Second caption now', 'Third one, going', 'Up in the hills\nthe fourth caption', 'Up in the hills\nthe fourth caption', 'Fifth', 'Sixth and last', 'Seventh caption'];
    const upload = texts.map((text) => ({ blocks: caption(text, 650), space: SPACE }));
    const band = captionBand(textZones(upload))!;
    const upper = caption(texts[3]!, 650)[0]!;
    expect(rectContains(band, normalised(upper))).toBe(true);
  });

  it('ignores frames of unknown size, specks and unsure readings', () => {
    expect(textZones(CAPTIONS.map((text) => ({ blocks: caption(text || 'x', 650), space: null })))).toEqual([]);
    const noisy = CAPTIONS.map((text, i) => ({ blocks: [line('*', 100, 300 + i, 10, 10), ...caption(text || 'gone', 300, 40)], space: SPACE }));
    expect(textZones(noisy)).toEqual([]);
  });

  it('names zones by where they sit', () => {
    expect(zoneName({ x: 0.05, y: 0.8, w: 0.9, h: 0.15 })).toBe('bottom band');
    expect(zoneName({ x: 0.8, y: 0.02, w: 0.15, h: 0.06 })).toBe('top-right corner');
    expect(zoneName({ x: 0.02, y: 0.45, w: 0.1, h: 0.1 })).toBe('left side');
    expect(zoneName({ x: 0.4, y: 0.45, w: 0.2, h: 0.1 })).toBe('middle');
    expect(zoneName({ x: 0.4, y: 0.85, w: 0.2, h: 0.1 })).toBe('bottom centre');
  });
});
