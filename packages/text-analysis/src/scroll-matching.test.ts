import { describe, expect, it } from 'vitest';
import { rectVertices } from './geometry.js';
import { layoutLines, type LayoutBlock, type LayoutLine } from './scroll-layout.js';
import {
  DEFAULT_SCROLL_SETTINGS,
  findItemsInFrame,
  makeScrollTemplate,
  placeTemplate,
  scanStep,
  SCROLL_SETTING_RANGES,
  type ScrollSettings,
  type ScrollTemplate,
} from './scroll-matching.js';

/*
 * Fixtures: a list of items 100 px apart on a frame 400 px high. Each item has a title at the left (centre 35 px
 * below the item's top) and a price at the right (centre 75 px below). Scrolling moves every item up.
 */

const FRAME_HEIGHT = 400;
const PITCH = 100;

const block = (text: string, x: number, y: number, w: number, h: number): LayoutBlock => ({
  text,
  vertices: rectVertices({ x, y, w, h }),
});

const title = (n: number) => `Item ${String(n).padStart(2, '0')} ${['Blue Kettle', 'Red Lamp', 'Oak Chair', 'Wool Scarf', 'Glass Vase', 'Copper Pot'][(n - 1) % 6]}`;
const price = (n: number) => `$ ${(n * 3.25 + 4).toFixed(2)}`;

function itemBlocks(n: number, top: number): LayoutBlock[] {
  return [block(title(n), 50, top + 20, 260 + (n % 3) * 40, 30), block(price(n), 900, top + 60, 100, 30)];
}

/** The blocks an OCR engine would see with the list scrolled up by `scroll` px: only text wholly on the frame. */
function listFrame(scroll: number, count = 6): LayoutBlock[] {
  const blocks: LayoutBlock[] = [];
  for (let n = 1; n <= count; n++) blocks.push(...itemBlocks(n, (n - 1) * PITCH - scroll));
  return blocks.filter((b) => b.vertices.every((v) => v.y >= 0 && v.y <= FRAME_HEIGHT));
}

const lines = (blocks: LayoutBlock[]): LayoutLine[] => layoutLines(blocks);
const settings = (over: Partial<ScrollSettings> = {}): ScrollSettings => ({ ...DEFAULT_SCROLL_SETTINGS, ...over });
/** The box a user draws around item 2 on the unscrolled frame. */
const BOX = { x: 40, y: 100, w: 1000, h: 100 };

function template(): ScrollTemplate {
  const t = makeScrollTemplate(lines(listFrame(0)), BOX);
  if (!t) throw new Error('no template');
  return t;
}

const tops = (frameBlocks: LayoutBlock[], s = settings()) => findItemsInFrame(template(), lines(frameBlocks), 0, s).map((i) => i.bounds.y);

describe('scroll template', () => {
  it('records the layout of the lines inside the box: their places, count and segments', () => {
    const t = template();
    expect(t.lines.map((l) => l.text)).toEqual([title(2), price(2)]);
    expect(t.lines.map((l) => l.relY)).toEqual([0.35, 0.75]);
    expect(t.lines.map((l) => l.segments)).toEqual([1, 1]);
    expect(t.lines[1]!.relLeft).toBeCloseTo(0.86);
    expect(t.minLineSpacing).toBe(40);
    expect(makeScrollTemplate(lines(listFrame(0)), { x: 40, y: 395, w: 1000, h: 5 })).toBeNull();
  });

  it('scans in steps of 30% of the smallest line spacing, never under 5 px', () => {
    expect(scanStep(template())).toBe(12);
    const tight = makeScrollTemplate(lines([block('a', 50, 10, 100, 8), block('b', 50, 22, 100, 8)]), { x: 0, y: 0, w: 400, h: 40 })!;
    expect(tight.minLineSpacing).toBe(12);
    expect(scanStep(tight)).toBe(5);
    // One line: its height stands in for the spacing.
    const single = makeScrollTemplate(lines([block('Total', 50, 10, 100, 50)]), { x: 0, y: 0, w: 400, h: 80 })!;
    expect(scanStep(single)).toBe(15);
    // On a frame twice as high the spacing doubles.
    expect(placeTemplate(template(), { x: 80, y: 200, w: 2000, h: 200 }).minLineSpacing).toBe(80);
  });

  it('has the spec ranges and steps and sensible defaults inside them', () => {
    expect(SCROLL_SETTING_RANGES).toEqual({
      linePositionTolerance: { min: 1, max: 30, step: 1 },
      lineCountTolerance: { min: 10, max: 50, step: 5 },
      minSimilarity: { min: 30, max: 100, step: 5 },
      duplicateThreshold: { min: 50, max: 100, step: 5 },
    });
    for (const [name, range] of Object.entries(SCROLL_SETTING_RANGES)) {
      const value = DEFAULT_SCROLL_SETTINGS[name as keyof ScrollSettings];
      expect(value).toBeGreaterThanOrEqual(range.min);
      expect(value).toBeLessThanOrEqual(range.max);
      expect((value - range.min) % range.step).toBe(0);
    }
  });
});

describe('finding list items', () => {
  it('finds every whole item on the template frame, exactly, with its lines', () => {
    const found = findItemsInFrame(template(), lines(listFrame(0)), 3, settings());
    expect(found.map((i) => i.bounds)).toEqual([0, 100, 200, 300].map((y) => ({ ...BOX, y })));
    expect(found.map((i) => i.texts)).toEqual([1, 2, 3, 4].map((n) => [title(n), price(n)]));
    expect(found.every((i) => i.similarity === 1 && i.lines === 2 && i.frameIndex === 3)).toBe(true);
  });

  it('finds items wherever scrolling put them, and skips an item cut by the frame edge', () => {
    // Scrolled by 36 px: item 1 shows only its price, item 5 only its title; items 2 to 4 are whole.
    expect(tops(listFrame(36))).toEqual([64, 164, 264]);
    // Off the scan grid of 12 px laid on the template (41 px): the nearest window, 5 px away, is within the 10%
    // tolerance, and the box is then set on the item's lines.
    const off = findItemsInFrame(template(), lines(listFrame(41)), 0, settings());
    expect(off.map((i) => i.bounds.y)).toEqual([59, 159, 259]);
    expect(off.map((i) => i.texts[0])).toEqual([title(2), title(3), title(4)]);
  });

  it('keeps windows inside the frame when its height is known, leaving out an item cut by the edge', () => {
    // Item 5's title is whole at the bottom, but its price is cut: OCR reads the visible half as noise.
    const frame = [...listFrame(0, 4), block(title(5), 50, 420, 300, 30), block('oa ee', 900, 460, 100, 20)];
    const height = 480;
    expect(findItemsInFrame(template(), lines(frame), 0, settings()).map((i) => i.texts)).toContainEqual([title(5), 'oa ee']);
    const inside = findItemsInFrame(template(), lines(frame), 0, settings(), height);
    expect(inside.map((i) => i.texts[0])).toEqual([1, 2, 3, 4].map(title));
    expect(inside.every((i) => i.bounds.y >= 0 && i.bounds.y + i.bounds.h <= height)).toBe(true);
  });

  it('finds items drawn on a frame of another size when the template is placed on it', () => {
    const doubled = listFrame(0).map((b) => ({ ...b, vertices: b.vertices.map((v) => ({ x: v.x * 2, y: v.y * 2 })) }));
    const placed = placeTemplate(template(), { x: 80, y: 200, w: 2000, h: 200 });
    expect(findItemsInFrame(placed, lines(doubled), 0, settings()).map((i) => i.bounds.y)).toEqual([0, 200, 400, 600]);
  });

  it('rejects text that is not laid out like the item: a heading, a paragraph, a lone price', () => {
    const paragraph = [0, 1, 2, 3].map((i) => block(`Terms and conditions apply to every order line ${i}`, 50, 20 + i * 40, 950, 30));
    const frame = [
      ...paragraph,
      block('Shopping list', 400, 190, 240, 30),
      block('$ 3.50', 900, 260, 100, 30),
      ...itemBlocks(7, 300),
    ];
    const found = findItemsInFrame(template(), lines(frame), 0, settings());
    expect(found.map((i) => i.texts)).toEqual([[title(7), price(7)]]);
    // Even the loosest similarity keeps a paragraph out: its lines never stand where the price stands.
    expect(findItemsInFrame(template(), lines(paragraph), 0, settings({ minSimilarity: 30, linePositionTolerance: 30 }))).toEqual([]);
  });
});

describe('the tolerances', () => {
  it('line position tolerance: how far a line may sit from its place', () => {
    // An item 5 px from the nearest window of the 12 px scan grid (124 and 136 px) is 5% of the height off.
    const between = itemBlocks(5, 129);
    expect(tops(between, settings({ linePositionTolerance: 3 }))).toEqual([]);
    expect(tops(between, settings({ linePositionTolerance: 5 }))).toEqual([129]);
    // A price set lower than the template's (by 12% of the height) needs a wider tolerance.
    const lowPrice = [block(title(9), 50, 120, 300, 30), block(price(9), 900, 172, 100, 30)];
    expect(tops(lowPrice, settings({ linePositionTolerance: 10 }))).toEqual([]);
    expect(tops(lowPrice, settings({ linePositionTolerance: 15 }))).toHaveLength(1);
  });

  it('line count tolerance: an extra line costs score only beyond it', () => {
    // A "NEW" badge above the title makes 3 lines where the template has 2 (50% more).
    const badged = [block('NEW', 50, 102, 60, 12), ...itemBlocks(8, 100)];
    const at = (tolerance: number) => findItemsInFrame(template(), lines(badged), 0, settings({ lineCountTolerance: tolerance, minSimilarity: 30 }))[0]!;
    expect(at(30).similarity).toBeCloseTo(0.5 + 0.3 * (2 / 3) + 0.2 * (2 / 3));
    expect(at(50).similarity).toBeCloseTo(0.5 + 0.3 + 0.2 * (2 / 3));
    expect(at(50).texts).toEqual(['NEW', title(8), price(8)]);
  });

  it('minimum similarity: the overall score a window needs', () => {
    const badged = [block('NEW', 50, 102, 60, 12), ...itemBlocks(8, 100)];
    const count = (minSimilarity: number) => findItemsInFrame(template(), lines(badged), 0, settings({ minSimilarity })).length;
    expect(count(80)).toBe(1); // scores 0.83
    expect(count(85)).toBe(0);
    // A price line cut into two segments ("was $ 30.00" set apart from "$ 24.99") scores lower than a clean one.
    const split = [block(title(3), 50, 120, 300, 30), block('was $ 30.00', 600, 160, 140, 30), block('$ 24.99', 900, 160, 100, 30)];
    const [item] = findItemsInFrame(template(), lines(split), 0, settings());
    expect(item!.similarity).toBeCloseTo(0.5 + 0.3 + 0.2 * (1.5 / 2));
    expect(findItemsInFrame(template(), lines(split), 0, settings({ minSimilarity: 100 }))).toEqual([]);
  });

  it('never reports the same item twice on one frame, however loose the tolerance', () => {
    const found = findItemsInFrame(template(), lines(listFrame(0)), 0, settings({ linePositionTolerance: 30, lineCountTolerance: 50, minSimilarity: 30 }));
    expect(found.map((i) => i.texts[0])).toEqual([title(1), title(2), title(3), title(4)]);
  });
});
