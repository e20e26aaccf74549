import type { Box } from './geometry.js';

/**
 * A reader of seven-segment digits (LED and LCD displays: bench supplies, scales, meters, pumps, clocks), which
 * Tesseract does not read at all. Lit strokes are found by contrast with their surroundings, light on dark (LEDs
 * of any colour, by their brightest channel) and dark on light (LCDs, whose unlit "ghost" segments are only a
 * little darker than the glass). Each stroke of such a display is a separate bar, so digits are groups of bars
 * and a digit is read from which of its 7 places hold a bar; dots between digits are decimal points or colons.
 */

/** A value read from a display: its text (`12.05`, `-3.2`, `14:37`), where it is, and how sure (0-100). */
export interface SegmentWord {
  text: string;
  box: Box;
  confidence: number;
}

/** A connected set of lit pixels: its bounding box and pixel count. */
interface Blob {
  left: number;
  top: number;
  right: number;
  bottom: number;
  count: number;
  /** Its number in the label image, when one was asked for. */
  id?: number;
}

const bw = (b: Blob) => b.right - b.left + 1;
const bh = (b: Blob) => b.bottom - b.top + 1;
const cx = (b: Blob) => (b.left + b.right) / 2;
const cy = (b: Blob) => (b.top + b.bottom) / 2;
const thickness = (b: Blob) => Math.min(bw(b), bh(b));
const fill = (b: Blob) => b.count / (bw(b) * bh(b));

/** A pixel is lit when it is this much brighter (or darker) than the mean around it. */
const CONTRAST = 40;
/** Pixels darker than this are never a lit stroke (LEDs are bright; an LCD is read inverted). */
const FLOOR = 96;
/** Share of the way from a merged blob's darkest to its brightest pixel at which its strokes are cut apart. */
const REFINE_LEVEL = 0.6;
/** Segment bars are at least this many times as long as thick, and fill most of their box (pointed ends). */
const BAR_ELONGATION = 2;
const BAR_FILL = 0.6;
/** Digits lower than this (pixels) are not looked for. */
const MIN_DIGIT_HEIGHT = 14;

const GLYPHS = new Map<string, string>([
  ['abcdef', '0'], ['bc', '1'], ['abdeg', '2'], ['abcdg', '3'], ['bcfg', '4'], ['acdfg', '5'], ['acdefg', '6'],
  ['abc', '7'], ['abcdefg', '8'], ['abcdfg', '9'], ['cdefg', '6'], ['abcfg', '9'],
]);

/** Side of the square blocks a frame is looked at in: a block without CONTRAST between its pixels holds no stroke edge. */
const BLOCK = 16;

/**
 * Marks pixels brighter by CONTRAST than the mean of the square around them (an integral image makes each mean
 * four look-ups; the comparison is done on sums, without a division). Only blocks whose own pixels differ by
 * CONTRAST are compared, pixel by pixel: plain background costs one pass.
 */
function litMask(pixels: Uint8Array, width: number, height: number, radius: number): Uint8Array {
  const w1 = width + 1;
  const gw = Math.ceil(width / BLOCK);
  const low = new Uint8Array(gw * Math.ceil(height / BLOCK)).fill(255);
  const high = new Uint8Array(low.length);
  const sums = new Int32Array(w1 * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    const above = y * w1;
    const here = above + w1;
    const base = y * width;
    const blocks = ((y / BLOCK) | 0) * gw;
    for (let x = 0; x < width; x++) {
      const v = pixels[base + x]!;
      row += v;
      sums[here + x + 1] = sums[above + x + 1]! + row;
      const b = blocks + ((x / BLOCK) | 0);
      if (v < low[b]!) low[b] = v;
      if (v > high[b]!) high[b] = v;
    }
  }
  const mask = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const y0 = (y > radius ? y - radius : 0) * w1;
    const y1 = (y + radius + 1 < height ? y + radius + 1 : height) * w1;
    const rows = (y1 - y0) / w1;
    const base = y * width;
    const blocks = ((y / BLOCK) | 0) * gw;
    for (let bx = 0; bx < gw; bx++) {
      const b = blocks + bx;
      if (high[b]! < FLOOR || high[b]! - low[b]! < CONTRAST) continue;
      const end = Math.min(width, (bx + 1) * BLOCK);
      for (let x = bx * BLOCK; x < end; x++) {
        const v = pixels[base + x]!;
        if (v < FLOOR) continue;
        const x0 = x > radius ? x - radius : 0;
        const x1 = x + radius + 1 < width ? x + radius + 1 : width;
        const area = rows * (x1 - x0);
        if ((v - CONTRAST) * area >= sums[y1 + x1]! - sums[y0 + x1]! - sums[y1 + x0]! + sums[y0 + x0]!) mask[base + x] = 1;
      }
    }
  }
  return mask;
}

/**
 * Glow and blur can join a digit's strokes into one blob: inside such a blob's box, only what is at least
 * REFINE_LEVEL of the way from the darkest to the brightest pixel is kept, which opens the gaps again.
 */
function refine(blob: Blob, pixels: Uint8Array, width: number, labels: Int32Array): Blob[] {
  const w = bw(blob);
  const h = bh(blob);
  let low = 255;
  let high = 0;
  for (let y = blob.top; y <= blob.bottom; y++) {
    for (let x = blob.left; x <= blob.right; x++) {
      if (labels[y * width + x] !== blob.id) continue;
      const v = pixels[y * width + x]!;
      if (v < low) low = v;
      if (v > high) high = v;
    }
  }
  const level = low + REFINE_LEVEL * (high - low);
  const sub = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const p = (blob.top + y) * width + blob.left + x;
    sub[y * w + x] = labels[p] === blob.id && pixels[p]! >= level ? 1 : 0;
  }
  const pieces = blobsOf(sub, w, h).map((b) => ({ left: b.left + blob.left, right: b.right + blob.left, top: b.top + blob.top, bottom: b.bottom + blob.top, count: b.count }));
  // A dot cut into specks (an evenly lit LCD dot has only noise in it) stays a dot.
  return isDot(blob) && !pieces.some(isBar) ? [blob] : pieces;
}

/** The 4-connected blobs of a mask (runs of each row joined across rows with union-find). */
function blobsOf(mask: Uint8Array, width: number, height: number, labels?: Int32Array): Blob[] {
  const runY: number[] = [];
  const runX0: number[] = [];
  const runX1: number[] = [];
  const parent: number[] = [];
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  let previousStart = 0;
  let previousEnd = 0;
  for (let y = 0; y < height; y++) {
    const rowStart = runY.length;
    let x = 0;
    const base = y * width;
    while (x < width) {
      if (mask[base + x] === 0) {
        x++;
        continue;
      }
      const x0 = x;
      while (x < width && mask[base + x] === 1) x++;
      const id = runY.length;
      runY.push(y);
      runX0.push(x0);
      runX1.push(x - 1);
      parent.push(id);
      for (let j = previousStart; j < previousEnd; j++) {
        if (runX1[j]! < x0 || runX0[j]! > x - 1) continue;
        const a = find(j);
        const b = find(id);
        if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
      }
    }
    previousStart = rowStart;
    previousEnd = runY.length;
  }
  const blobs = new Map<number, Blob>();
  for (let i = 0; i < runY.length; i++) {
    const root = find(i);
    const b = blobs.get(root);
    const n = runX1[i]! - runX0[i]! + 1;
    if (!b) blobs.set(root, { left: runX0[i]!, right: runX1[i]!, top: runY[i]!, bottom: runY[i]!, count: n });
    else {
      b.left = Math.min(b.left, runX0[i]!);
      b.right = Math.max(b.right, runX1[i]!);
      b.bottom = Math.max(b.bottom, runY[i]!);
      b.count += n;
    }
  }
  if (labels) {
    const ids = new Map<number, number>();
    [...blobs.keys()].forEach((root, i) => {
      ids.set(root, i + 1);
      blobs.get(root)!.id = i + 1;
    });
    for (let i = 0; i < runY.length; i++) labels.fill(ids.get(find(i))!, runY[i]! * width + runX0[i]!, runY[i]! * width + runX1[i]! + 1);
  }
  return [...blobs.values()];
}

const isBar = (b: Blob) => thickness(b) >= 2 && Math.max(bw(b), bh(b)) >= BAR_ELONGATION * thickness(b) && fill(b) >= BAR_FILL;
const isDot = (b: Blob) => bw(b) >= 2 && bh(b) >= 2 && Math.abs(bw(b) - bh(b)) <= 0.35 * Math.max(bw(b), bh(b)) + 1 && fill(b) >= 0.5;

/** Gap between two boxes (0 when they touch or overlap). */
function gapBetween(a: Blob, b: Blob): number {
  return Math.max(0, Math.max(a.left, b.left) - Math.min(a.right, b.right) - 1, Math.max(a.top, b.top) - Math.min(a.bottom, b.bottom) - 1);
}

interface Cell {
  bars: Blob[];
  box: Blob;
  stroke: number;
}

function union(blobs: Blob[]): Blob {
  return {
    left: Math.min(...blobs.map((b) => b.left)),
    top: Math.min(...blobs.map((b) => b.top)),
    right: Math.max(...blobs.map((b) => b.right)),
    bottom: Math.max(...blobs.map((b) => b.bottom)),
    count: blobs.reduce((n, b) => n + b.count, 0),
  };
}

/** Bars of like stroke that touch or nearly touch (closer than a stroke) are one digit's segments. */
function cellsOf(bars: Blob[]): Cell[] {
  const parent = bars.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (let i = 0; i < bars.length; i++) {
    for (let j = i + 1; j < bars.length; j++) {
      const ti = thickness(bars[i]!);
      const tj = thickness(bars[j]!);
      if (Math.max(ti, tj) > 2 * Math.min(ti, tj)) continue;
      // A digit's upper and lower verticals lose their pointed ends to blur: one above the other, they may be further apart.
      const upright = bh(bars[i]!) > bw(bars[i]!) && bh(bars[j]!) > bw(bars[j]!);
      const stacked = upright && Math.min(bars[i]!.right, bars[j]!.right) >= Math.max(bars[i]!.left, bars[j]!.left);
      if (gapBetween(bars[i]!, bars[j]!) <= (stacked ? 3 : 1.5) * Math.min(ti, tj)) parent[find(i)] = find(j);
    }
  }
  const groups = new Map<number, Blob[]>();
  bars.forEach((b, i) => groups.set(find(i), [...(groups.get(find(i)) ?? []), b]));
  return [...groups.values()].map((g) => ({ bars: g, box: union(g), stroke: median(g.map(thickness)) }));
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** The digit a cell shows, given its row's top and height; undefined when its bars are not a digit's. */
function decodeCell(cell: Cell, top: number, height: number): string | undefined {
  const places = new Set<string>();
  const horizontals = cell.bars.filter((b) => bw(b) > bh(b));
  if (horizontals.length === 0) {
    // Only a 1 has no horizontal bar: two vertical bars, one above the other.
    const [upper, lower] = [...cell.bars].sort((a, b) => a.top - b.top);
    if (cell.bars.length !== 2 || !upper || !lower || cy(upper) > top + height / 2 || cy(lower) < top + height / 2) return undefined;
    return bh(upper) + bh(lower) >= 0.45 * height ? '1' : undefined;
  }
  const middle = cell.box.left + bw(cell.box) / 2;
  for (const b of cell.bars) {
    const at = (cy(b) - top) / height;
    let place: string | undefined;
    if (bw(b) > bh(b)) place = at < 0.25 ? 'a' : at > 0.75 ? 'd' : at > 0.35 && at < 0.65 ? 'g' : undefined;
    else if (bh(b) < 0.18 * height) place = undefined;
    else if (cx(b) < middle) place = at < 0.5 ? 'f' : 'e';
    else place = at < 0.5 ? 'b' : 'c';
    if (!place || places.has(place)) return undefined;
    places.add(place);
  }
  return GLYPHS.get([...places].sort().join(''));
}

/** One display's digits in a row, left to right, with the decimal points, colon and leading minus around them. */
function readRow(row: Cell[], minuses: Cell[], dots: Blob[], loose: Blob[]): SegmentWord | undefined {
  const top = Math.min(...row.map((c) => c.box.top));
  const bottom = Math.max(...row.map((c) => c.box.bottom));
  const height = bottom - top + 1;
  const stroke = median(row.map((c) => c.stroke));
  const digits = row.map((c) => decodeCell(c, top, height));
  if (digits.some((d) => d === undefined)) return undefined;
  // A bar of no digit amid the digits is a stroke a digit lost: what is left of that digit may read as another.
  const left = row[0]!.box.left;
  const right = row[row.length - 1]!.box.right;
  if (loose.some((b) => cx(b) > left && cx(b) < right && cy(b) > top && cy(b) < bottom && !row.some((c) => c.bars.includes(b)))) return undefined;
  const near = (d: Blob) => thickness(d) >= 0.5 * stroke && Math.max(bw(d), bh(d)) <= 2.2 * stroke;
  let text = '';
  for (let i = 0; i < row.length; i++) {
    text += digits[i]!;
    const next = row[i + 1];
    if (!next) break;
    const between = dots.filter((d) => near(d) && cx(d) > row[i]!.box.right && cx(d) < next.box.left && d.top >= top - stroke && d.bottom <= bottom + stroke);
    const low = between.filter((d) => cy(d) > top + 0.8 * height);
    const colon = between.filter((d) => cy(d) > top + 0.15 * height && cy(d) < top + 0.85 * height);
    if (colon.length === 2 && low.length === 0) text += ':';
    else if (low.length === 1) text += '.';
  }
  const first = row[0]!.box;
  const minus = minuses.find((m) => m.box.right < first.left && first.left - m.box.right <= 0.9 * height && Math.abs(cy(m.box) - (top + height / 2)) <= 0.15 * height && Math.abs(m.stroke - stroke) <= 0.5 * stroke);
  if (minus) text = `-${text}`;
  const bars = row.flatMap((c) => c.bars);
  if (bars.length + (minus ? 1 : 0) < 3) return undefined;
  const confidence = 70 + 25 * (bars.filter((b) => fill(b) >= 0.7).length / bars.length);
  const box = union([...row.map((c) => c.box), ...(minus ? [minus.box] : [])]);
  return { text, box: { left: box.left, top: box.top, width: bw(box), height: bh(box) }, confidence };
}

/** Values read from the displays whose strokes are brighter than their glass in `pixels`. */
function readLit(pixels: Uint8Array, width: number, height: number): SegmentWord[] {
  const radius = Math.max(8, Math.round(height / 12));
  const labels = new Int32Array(width * height);
  const found = blobsOf(litMask(pixels, width, height, radius), width, height, labels).filter((b) => b.count >= 4 && bh(b) < height / 2 && bw(b) < width / 2);
  const blobs = found.flatMap((b) => (b.count < 12 || isBar(b) ? [b] : refine(b, pixels, width, labels)));
  const bars = blobs.filter(isBar);
  if (bars.length < 3) return [];
  const dots = blobs.filter(isDot);
  const cells = cellsOf(bars);
  // Cells of two bars or more as high as a digit (at least three strokes); a lone horizontal bar may be a minus sign.
  const digits = cells.filter((c) => c.bars.length >= 2 && bh(c.box) >= 3 * c.stroke && bh(c.box) >= MIN_DIGIT_HEIGHT).sort((a, b) => a.box.left - b.box.left);
  const minuses = cells.filter((c) => c.bars.length === 1 && bw(c.box) > bh(c.box));
  const rows: Cell[][] = [];
  for (const cell of digits) {
    const h = bh(cell.box);
    // The same display: strokes alike, spans one over the other (a 1 or 4 is a little shorter), next to each other.
    const row = rows.find((r) => {
      const last = r[r.length - 1]!;
      const lh = Math.max(...r.map((c) => bh(c.box)));
      const overlap = Math.min(cell.box.bottom, last.box.bottom) - Math.max(cell.box.top, last.box.top) + 1;
      return Math.abs(cell.stroke - last.stroke) <= 0.5 * Math.max(cell.stroke, last.stroke) && overlap >= 0.7 * Math.min(h, lh) && cell.box.left > last.box.right && cell.box.left - last.box.right <= Math.max(h, lh);
    });
    if (row) row.push(cell);
    else rows.push([cell]);
  }
  const loose = cells.filter((c) => c.bars.length === 1).map((c) => c.box);
  return rows.flatMap((r) => readRow(r, minuses, dots, loose) ?? []);
}

/** The frame's pixels the reader looks at: brightest channel (LEDs of any colour) and grey (LCDs). */
export interface SegmentImage {
  width: number;
  height: number;
  bright: Uint8Array;
  grey: Uint8Array;
}

/** Reads the seven-segment values on a frame: lit strokes on dark glass, then dark strokes on light glass. */
export function readSevenSegment(image: SegmentImage): SegmentWord[] {
  const { width, height } = image;
  const ink = new Uint8Array(image.grey.length);
  for (let p = 0; p < ink.length; p++) ink[p] = 255 - image.grey[p]!;
  return [...readLit(image.bright, width, height), ...readLit(ink, width, height)];
}
