import type { Box } from './geometry.js';
import { readLoneDigit } from './lone-digit.js';
import { GLYPHS } from './segment-glyphs.js';

/**
 * A reader of seven-segment digits (LED and LCD displays: meters, pumps, scales, clocks), which Tesseract does not
 * read at all. Strokes are found by contrast with their surroundings, light on dark (LEDs of any colour) and dark on
 * light (LCDs, read inverted), on the frame and on halved copies of it, so that a stroke of any width is read at a
 * size where it is a few pixels wide. Each segment is a bar: an elongated, solid blob, upright or leaning (italic
 * digits) or lying; segments joined by glow, blur or a display whose segments touch are cut apart first. Bars of like
 * width side by side are a display's row; the row's lying bars, one above the other, mark its digit cells, and its
 * upright bars stand at their ends. A digit is read from which of its 7 places hold a bar, checked against the
 * pixels at those places; dots between digits are decimal points or a colon. Rules are stated in strokes and digit
 * heights, never in pixels of one frame size, and in contrasts, never in absolute grey levels.
 */

/** A value read from a display: its text (`12.05`, `-3.2`, `14:37`), where it is, and how sure (0-100). */
export interface SegmentWord {
  text: string;
  box: Box;
  confidence: number;
}

/** A connected set of lit pixels: its bounding box, pixel count and second moments. */
interface Blob {
  left: number;
  top: number;
  right: number;
  bottom: number;
  count: number;
  /** Centroid, and the variances and covariance of its pixels' coordinates. */
  mx: number;
  my: number;
  vxx: number;
  vyy: number;
  vxy: number;
  /** Its number in the label image, when one was asked for. */
  id?: number;
}

/** A blob shaped like a segment: its orientation, length, thickness and slope (x change per y, or y per x). */
interface Bar {
  blob: Blob;
  upright: boolean;
  length: number;
  thickness: number;
  slope: number;
  /** Share of its parallelogram its pixels fill. */
  solidity: number;
  /** Mean pixel value along its middle (set once the bar is found on a level's pixels). */
  level: number;
}

const bw = (b: Blob) => b.right - b.left + 1;
const bh = (b: Blob) => b.bottom - b.top + 1;
const fill = (b: Blob) => b.count / (bw(b) * bh(b));

/** A pixel is lit when it is this much brighter (or darker, on an LCD) than the mean of the blocks around it. */
const CONTRAST = 28;
/**
 * Strokes MIN_STROKE to MAX_STROKE pixels wide are read on a level; thicker ones on a halved copy, where they are
 * half as wide. A value holding a thicker bar is left to that copy, so the limit stands a pixel above the 12 px
 * strokes a level is meant for: a segment measured at 12.0 px must not send its digits to a copy where their
 * neighbouring segments have merged.
 */
const MIN_STROKE = 1.8;
const MAX_STROKE = 13;
/** Halvings of the frame looked at (a stroke up to MAX_STROKE * 2^LEVELS wide is read). */
const LEVELS = 4;
/** Share of the way from a merged blob's darkest to its brightest pixel at which its strokes are cut apart. */
const REFINE_LEVEL = 0.6;
/** Segment bars are at least this many times as long as thick, and fill most of the parallelogram they span. */
const BAR_ELONGATION = 1.7;
const BAR_SOLIDITY = 0.72;
/** Digits lean by at most this slope (x per y; italic displays lean about 0.1-0.2); horizontals tilt by at most this much. */
const MAX_SLANT = 0.4;
/** Digits lower than this (pixels, at the level read) are not looked for. */
const MIN_DIGIT_HEIGHT = 14;

/** Side of the square blocks a frame is looked at in: a block without CONTRAST between its pixels holds no stroke edge. */
const BLOCK = 16;

/**
 * Marks the pixels brighter by CONTRAST than the mean of the 3x3 blocks around their block, and brighter than the
 * midpoint of the darkest and brightest pixel there: unlit "ghost" segments, a little brighter than the glass, stay
 * dark. Only blocks with an edge in them (CONTRAST between their pixels) are looked at pixel by pixel: plain
 * background costs one pass that sums each block.
 */
function litMask(pixels: Uint8Array, width: number, height: number, scratch: Scratch): Uint8Array {
  const gw = Math.ceil(width / BLOCK);
  const gh = Math.ceil(height / BLOCK);
  const low = new Uint8Array(gw * gh).fill(255);
  const high = new Uint8Array(low.length);
  const sum = new Float64Array(low.length);
  for (let y = 0; y < height; y++) {
    const base = y * width;
    let b = ((y / BLOCK) | 0) * gw;
    for (let start = 0; start < width; start += BLOCK, b++) {
      let lo = low[b]!;
      let hi = high[b]!;
      let total = 0;
      const end = Math.min(width, start + BLOCK);
      for (let x = start; x < end; x++) {
        const v = pixels[base + x]!;
        total += v;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
      }
      low[b] = lo;
      high[b] = hi;
      sum[b]! += total;
    }
  }
  // Each block's threshold over the 3x3 blocks around it, or 256 (nothing lit) where it holds no edge (a stroke
  // read at this level is narrower than a block, so a block inside a stroke has its edge in it).
  const threshold = new Uint16Array(low.length).fill(256);
  for (let by = 0; by < gh; by++) for (let bx = 0; bx < gw; bx++) {
    if (high[by * gw + bx]! - low[by * gw + bx]! < CONTRAST) continue;
    let lo = 255;
    let hi = 0;
    let total = 0;
    let area = 0;
    for (let y = Math.max(0, by - 1); y <= Math.min(gh - 1, by + 1); y++) for (let x = Math.max(0, bx - 1); x <= Math.min(gw - 1, bx + 1); x++) {
      lo = Math.min(lo, low[y * gw + x]!);
      hi = Math.max(hi, high[y * gw + x]!);
      total += sum[y * gw + x]!;
      area += (Math.min(width, (x + 1) * BLOCK) - x * BLOCK) * (Math.min(height, (y + 1) * BLOCK) - y * BLOCK);
    }
    threshold[by * gw + bx] = Math.max((lo + hi + 1) >> 1, Math.ceil(total / area + CONTRAST));
  }
  const mask = scratch.mask.subarray(0, width * height).fill(0);
  for (let by = 0; by < gh; by++) for (let bx = 0; bx < gw; bx++) {
    const least = threshold[by * gw + bx]!;
    if (least > 255) continue;
    const xEnd = Math.min(width, (bx + 1) * BLOCK);
    const yEnd = Math.min(height, (by + 1) * BLOCK);
    for (let y = by * BLOCK; y < yEnd; y++) {
      const base = y * width;
      for (let x = bx * BLOCK; x < xEnd; x++) if (pixels[base + x]! >= least) mask[base + x] = 1;
    }
  }
  return mask;
}

/** The frame at half its size (each pixel the mean of 2x2). */
function halved(pixels: Uint8Array, width: number, height: number): { pixels: Uint8Array; width: number; height: number } {
  const w = width >> 1;
  const h = height >> 1;
  const out = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    const a = 2 * y * width;
    const b = a + width;
    for (let x = 0; x < w; x++) out[y * w + x] = (pixels[a + 2 * x]! + pixels[a + 2 * x + 1]! + pixels[b + 2 * x]! + pixels[b + 2 * x + 1]! + 2) >> 2;
  }
  return { pixels: out, width: w, height: h };
}

/** Sum of x^2 for x in [0, k]. */
const squares = (k: number) => (k * (k + 1) * (2 * k + 1)) / 6;

/** The 4-connected blobs of a mask (runs of each row joined across rows with union-find), with their moments. */
function blobsOf(mask: Uint8Array, width: number, labels?: Int32Array): Blob[] {
  const runY: number[] = [];
  const runX0: number[] = [];
  const runX1: number[] = [];
  const parent: number[] = [];
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  // Runs are found by jumping from one lit pixel to the next; the row above's runs are those of the previous row.
  let previousStart = 0;
  let previousEnd = 0;
  let rowStart = 0;
  let rowY = -2;
  let above = 0;
  let p = mask.indexOf(1);
  while (p >= 0) {
    const y = (p / width) | 0;
    if (y !== rowY) {
      previousStart = y === rowY + 1 ? rowStart : runY.length;
      previousEnd = runY.length;
      rowStart = runY.length;
      rowY = y;
      above = previousStart;
    }
    const base = y * width;
    const x0 = p - base;
    let x = x0;
    while (x < width && mask[base + x] === 1) x++;
    const id = runY.length;
    runY.push(y);
    runX0.push(x0);
    runX1.push(x - 1);
    parent.push(id);
    // Runs of a row are in x order: the row above's runs that end before this one starts are passed for good.
    while (above < previousEnd && runX1[above]! < x0) above++;
    for (let j = above; j < previousEnd && runX0[j]! <= x - 1; j++) {
      const a = find(j);
      const b = find(id);
      if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
    }
    p = mask.indexOf(1, base + x);
  }
  // Per root run: its blob's number, box, and sums of 1, x, y, x^2, y^2 and xy over its pixels.
  const runs = runY.length;
  const blobOf = new Int32Array(runs).fill(-1);
  const stats: number[][] = [];
  for (let i = 0; i < runs; i++) {
    const root = find(i);
    let k = blobOf[root]!;
    if (k < 0) {
      k = blobOf[root] = stats.length;
      stats.push([runX0[i]!, runY[i]!, runX1[i]!, runY[i]!, 0, 0, 0, 0, 0, 0]);
    }
    blobOf[i] = k;
    const s = stats[k]!;
    const x0 = runX0[i]!;
    const x1 = runX1[i]!;
    const y = runY[i]!;
    const n = x1 - x0 + 1;
    const sx = (n * (x0 + x1)) / 2;
    if (x0 < s[0]!) s[0] = x0;
    if (x1 > s[2]!) s[2] = x1;
    s[3] = y;
    s[4]! += n;
    s[5]! += sx;
    s[6]! += n * y;
    s[7]! += squares(x1) - (x0 > 0 ? squares(x0 - 1) : 0);
    s[8]! += n * y * y;
    s[9]! += sx * y;
  }
  if (labels) for (let i = 0; i < runs; i++) labels.fill(blobOf[i]! + 1, runY[i]! * width + runX0[i]!, runY[i]! * width + runX1[i]! + 1);
  return stats.map(([left, top, right, bottom, n, sx, sy, sxx, syy, sxy], k) => {
    const mx = sx! / n!;
    const my = sy! / n!;
    return { left: left!, top: top!, right: right!, bottom: bottom!, count: n!, mx, my, vxx: sxx! / n! - mx * mx + 1 / 12, vyy: syy! / n! - my * my + 1 / 12, vxy: sxy! / n! - mx * my, id: k + 1 };
  });
}

/**
 * The blob as a segment bar, or undefined: long and thin along its main axis (upright, possibly leaning, or lying),
 * and solid (its pixels fill the parallelogram its moments describe: a ring, a corner or a curve does not).
 */
function barOf(b: Blob): Bar | undefined {
  const upright = b.vyy >= b.vxx;
  const along = upright ? b.vyy : b.vxx;
  const across = upright ? b.vxx : b.vyy;
  const slope = b.vxy / along;
  const length = Math.sqrt(12 * along);
  const thickness = Math.sqrt(12 * Math.max(0, across - (b.vxy * b.vxy) / along));
  if (thickness < MIN_STROKE || length < BAR_ELONGATION * thickness || Math.abs(slope) > MAX_SLANT) return undefined;
  const solidity = b.count / (length * thickness);
  if (solidity < BAR_SOLIDITY || solidity > 1.25) return undefined;
  return { blob: b, upright, length, thickness, slope, solidity, level: 0 };
}

/** A decimal point or half a colon: a small blob about as wide as high that fills most of its box (a corner or an arc does not). */
const isDot = (b: Blob) => bw(b) >= 2 && bh(b) >= 2 && Math.abs(bw(b) - bh(b)) <= 0.35 * Math.max(bw(b), bh(b)) + 1 && fill(b) >= 0.65;

/** The blob's pixels as a mask of its own box (1 where `labels` holds its id). */
function maskOfBlob(blob: Blob, width: number, labels: Int32Array, keep: (p: number) => boolean = () => true): Uint8Array {
  const w = bw(blob);
  const sub = new Uint8Array(w * bh(blob));
  for (let y = 0; y < bh(blob); y++) for (let x = 0; x < w; x++) {
    const p = (blob.top + y) * width + blob.left + x;
    if (labels[p] === blob.id && keep(p)) sub[y * w + x] = 1;
  }
  return sub;
}

/** Blobs found in a box's mask, moved to where the box is (`left`, `top`). */
function placed(blobs: Blob[], left: number, top: number): Blob[] {
  return blobs.map((b) => ({ ...b, left: b.left + left, right: b.right + left, top: b.top + top, bottom: b.bottom + top, mx: b.mx + left, my: b.my + top }));
}

/** Lengths of the runs of 1s along rows (or columns) of a mask. */
function runLengths(mask: Uint8Array, w: number, h: number, alongRows: boolean): number[] {
  const runs: number[] = [];
  const [outer, inner] = alongRows ? [h, w] : [w, h];
  for (let i = 0; i < outer; i++) {
    let n = 0;
    for (let j = 0; j <= inner; j++) {
      const on = j < inner && mask[alongRows ? i * w + j : j * w + i] === 1;
      if (on) n++;
      else if (n > 0) {
        runs.push(n);
        n = 0;
      }
    }
  }
  return runs;
}

/** The pixels of a mask in runs along rows (or columns) at least `min` long. */
function longRuns(mask: Uint8Array, w: number, h: number, alongRows: boolean, min: number): Uint8Array {
  const out = new Uint8Array(mask.length);
  const [outer, inner] = alongRows ? [h, w] : [w, h];
  const at = (i: number, j: number) => (alongRows ? i * w + j : j * w + i);
  for (let i = 0; i < outer; i++) {
    let start = 0;
    for (let j = 0; j <= inner; j++) {
      if (j < inner && mask[at(i, j)] === 1) continue;
      if (j - start >= min) for (let k = start; k < j; k++) out[at(i, k)] = 1;
      start = j + 1;
    }
  }
  return out;
}

/**
 * Segments joined at their ends (an LCD whose segments touch, glow, blur) cut apart: a stroke is as wide as the
 * blob's shorter typical run; pixels in longer horizontal runs are lying segments, in longer vertical runs upright
 * ones, and what is in neither (a decimal point touching a segment) is kept as it is.
 */
function splitByRuns(mask: Uint8Array, w: number, h: number): Blob[] {
  const stroke = Math.min(median(runLengths(mask, w, h, true)), median(runLengths(mask, w, h, false)));
  const min = Math.ceil(2 * stroke) + 1;
  const lying = longRuns(mask, w, h, true, min);
  const upright = longRuns(mask, w, h, false, min);
  const rest = mask.map((v, p) => (v && !lying[p] && !upright[p] ? 1 : 0));
  return [...blobsOf(lying, w), ...blobsOf(upright, w), ...blobsOf(rest, w).filter(isDot)];
}

const barArea = (blobs: Blob[]) => blobs.reduce((n, b) => n + (barOf(b) ? b.count : 0), 0);

/**
 * A blob that is neither a bar nor a dot may be a digit's segments joined: cut apart by runs, or (glow, blur) first
 * by keeping only what is at least REFINE_LEVEL of the way from its darkest to its brightest pixel, which opens the
 * gaps again. The cut that leaves the most of it in bars wins.
 */
function refine(blob: Blob, pixels: Uint8Array, width: number, labels: Int32Array): Blob[] {
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
  const w = bw(blob);
  const h = bh(blob);
  const split = splitByRuns(maskOfBlob(blob, width, labels), w, h);
  let pieces = split;
  // Only a blob with a gradient in it (glow, blur) has gaps that a higher level opens.
  if (high - low >= 2 * CONTRAST) {
    const level = low + REFINE_LEVEL * (high - low);
    const cut = maskOfBlob(blob, width, labels, (p) => pixels[p]! >= level);
    const cutLabels = new Int32Array(w * h);
    const levelled = blobsOf(cut, w, cutLabels).flatMap((b) => (b.count < 12 || barOf(b) || isDot(b) ? [b] : placed(splitByRuns(maskOfBlob(b, w, cutLabels), bw(b), bh(b)), b.left, b.top)));
    if (barArea(levelled) > barArea(split)) pieces = levelled;
  }
  // A dot cut into specks (an evenly lit LCD dot has only noise in it) stays a dot.
  return isDot(blob) && !pieces.some(barOf) ? [blob] : placed(pieces, blob.left, blob.top);
}

/** The middle value (the upper one of an even count). */
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

/** Gap between two boxes along x and along y (0 when they overlap on that axis). */
function gaps(a: Blob, b: Blob): [number, number] {
  return [Math.max(0, Math.max(a.left, b.left) - Math.min(a.right, b.right) - 1), Math.max(0, Math.max(a.top, b.top) - Math.min(a.bottom, b.bottom) - 1)];
}

/**
 * Bars of one display row: of like thickness, on the same band (less than a stroke apart from top to bottom), and
 * beside each other (less than three and a half segments apart: a 1 stands at the right of its cell).
 */
function rowsOf(bars: Bar[]): Bar[][] {
  const parent = bars.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (let i = 0; i < bars.length; i++) {
    for (let j = i + 1; j < bars.length; j++) {
      const a = bars[i]!;
      const b = bars[j]!;
      if (Math.max(a.thickness, b.thickness) > 2 * Math.min(a.thickness, b.thickness)) continue;
      const [gx, gy] = gaps(a.blob, b.blob);
      if (gy <= 1.2 * Math.max(a.thickness, b.thickness) && gx <= 3.5 * Math.min(a.length, b.length)) parent[find(i)] = find(j);
    }
  }
  const groups = new Map<number, Bar[]>();
  bars.forEach((b, i) => groups.set(find(i), [...(groups.get(find(i)) ?? []), b]));
  return [...groups.values()];
}

/** One digit's bars, and its left and right edges after the row's slant is taken out. */
interface Cell {
  bars: Bar[];
  left: number;
  right: number;
}

/** A row's lean: x moves by `slope` per pixel down from the row's middle `y0`. Upright x of a point is x - (y - y0) * slope. */
interface Lean {
  slope: number;
  y0: number;
}

const uprightX = (lean: Lean, x: number, y: number) => x - (y - lean.y0) * lean.slope;

/** Where a row's digits begin and how high they are at upright x. */
type Band = (x: number) => { top: number; height: number };

/**
 * The row's digit cells, left to right: each digit's horizontal bars lie one above the other (a column), its
 * upright bars stand at the column's ends (the nearest end, within a stroke and a half); upright bars at no column
 * are 1s, one above the other.
 */
function cellsOf(row: Bar[], lean: Lean, stroke: number): Cell[] {
  const cells: Cell[] = [];
  const horizontals = row.filter((b) => !b.upright).sort((a, b) => a.blob.left - b.blob.left);
  for (const bar of horizontals) {
    const left = uprightX(lean, bar.blob.left, bar.blob.my);
    const right = uprightX(lean, bar.blob.right, bar.blob.my);
    const cell = cells.find((c) => Math.min(c.right, right) - Math.max(c.left, left) >= 0.5 * Math.min(c.right - c.left, right - left));
    if (cell) {
      cell.bars.push(bar);
      cell.left = Math.min(cell.left, left);
      cell.right = Math.max(cell.right, right);
    } else cells.push({ bars: [bar], left, right });
  }
  // Upright bars stand at a column's ends, where most of its bars end (a point joined to one bar lengthens only that one).
  const ends = new Map(cells.map((c) => {
    const lefts = c.bars.map((b) => uprightX(lean, b.blob.left, b.blob.my)).sort((a, b) => a - b);
    const rights = c.bars.map((b) => uprightX(lean, b.blob.right, b.blob.my)).sort((a, b) => a - b);
    return [c, [lefts[Math.ceil((lefts.length - 1) / 2)]!, rights[Math.floor((rights.length - 1) / 2)]!]] as const;
  }));
  const ones: Cell[] = [];
  for (const bar of row.filter((b) => b.upright)) {
    const x = uprightX(lean, bar.blob.mx, bar.blob.my);
    let best: Cell | undefined;
    let distance = 1.5 * stroke;
    for (const c of cells) {
      const [left, right] = ends.get(c)!;
      const d = Math.min(Math.abs(x - left), Math.abs(x - right));
      if (d <= distance) [best, distance] = [c, d];
    }
    if (best) {
      best.bars.push(bar);
      continue;
    }
    const one = ones.find((c) => Math.abs(x - (c.left + c.right) / 2) <= stroke);
    if (one) one.bars.push(bar);
    else ones.push({ bars: [bar], left: x, right: x });
  }
  return [...cells, ...ones].sort((a, b) => a.left + a.right - b.left - b.right);
}

/** The places (a-g) a cell's bars hold, its row spanning `top` to `top + height` at the cell; undefined when a bar is at no place or two at one. */
function placesOf(cell: Cell, lean: Lean, top: number, height: number): Set<string> | undefined {
  const places = new Set<string>();
  const middle = (cell.left + cell.right) / 2;
  const uprightOnly = cell.bars.every((b) => b.upright);
  for (const bar of cell.bars) {
    const b = bar.blob;
    const at = (b.my - top) / height;
    const found: string[] = [];
    if (!bar.upright) found.push(at < 0.25 ? 'a' : at > 0.75 ? 'd' : at > 0.35 && at < 0.65 ? 'g' : '');
    else if (bar.length < 0.2 * height) {
      // A short stroke just outside the column is a stray (a letter beside the digit); inside, it breaks the digit.
      const x = uprightX(lean, b.mx, b.my);
      if (x < cell.left - bar.thickness / 2 || x > cell.right + bar.thickness / 2) continue;
      return undefined;
    }
    else {
      const right = uprightOnly || uprightX(lean, b.mx, b.my) >= middle;
      // An upright bar as long as the digit is two segments joined (glow, blur).
      if (bar.length >= 0.7 * height) found.push(right ? 'b' : 'f', right ? 'c' : 'e');
      else found.push(right ? (at < 0.5 ? 'b' : 'c') : at < 0.5 ? 'f' : 'e');
    }
    for (const place of found) {
      if (!place || places.has(place)) return undefined;
      places.add(place);
    }
  }
  return places;
}

const glyphOf = (places: Iterable<string>) => GLYPHS.get([...places].sort().join(''));

/**
 * A cell's top and bottom from its lying bars only (a to d in a framed digit; none unless it has two, a 7's or a 4's
 * one lying bar frames nothing), and from all of its bars.
 */
function spanOf(c: Cell): { x: number; top: number; bottom: number; lyingTop: number; lyingBottom: number } {
  const lying = c.bars.filter((b) => !b.upright);
  if (lying.length === 1) lying.pop();
  return {
    x: (c.left + c.right) / 2,
    top: Math.min(...c.bars.map((b) => b.blob.top)),
    bottom: Math.max(...c.bars.map((b) => b.blob.bottom)),
    lyingTop: lying.length ? Math.min(...lying.map((b) => b.blob.top)) : Infinity,
    lyingBottom: lying.length ? Math.max(...lying.map((b) => b.blob.bottom)) : -Infinity,
  };
}

/** A straight line through points (x, y), level when they are fewer than two or it would be steeper than a tilted display's. */
function lineThrough(xs: number[], ys: number[]): (x: number) => number {
  const mean = (v: number[]) => v.reduce((a, b) => a + b, 0) / v.length;
  const mx = mean(xs);
  const my = mean(ys);
  const vx = xs.reduce((a, x) => a + (x - mx) ** 2, 0);
  const k = vx > 0 ? xs.reduce((a, x, i) => a + (x - mx) * (ys[i]! - my), 0) / vx : 0;
  const slope = Math.abs(k) <= 0.2 ? k : 0;
  return (x) => my + slope * (x - mx);
}

/** The level's pixels and the value from which a pixel counts as lit on this row. */
interface Lit {
  pixels: Uint8Array;
  /** The level's lit mask. */
  mask: Uint8Array;
  width: number;
  height: number;
  level: number;
}

/** The share of a window (half-sizes dx, dy) around upright x `ux` and `y` that is lit in the mask and as bright as the row's lit segments. */
function litShare(lit: Lit, lean: Lean, ux: number, y: number, dx: number, dy: number): number {
  let on = 0;
  let all = 0;
  for (let yy = Math.round(y - dy); yy <= Math.round(y + dy); yy++) {
    if (yy < 0 || yy >= lit.height) continue;
    const shift = (yy - lean.y0) * lean.slope;
    for (let xx = Math.round(ux + shift - dx); xx <= Math.round(ux + shift + dx); xx++) {
      if (xx < 0 || xx >= lit.width) continue;
      all++;
      const p = yy * lit.width + xx;
      if (lit.mask[p] && lit.pixels[p]! >= lit.level) on++;
    }
  }
  return all > 0 ? on / all : 0;
}

/** A place is lit when half of its window is, dark when at most 30 % is; in between it is a broken or partly hidden segment. */
const LIT_PLACE = 0.5;
const DARK_PLACE = 0.3;

/**
 * The places a cell of at least one lying bar holds, read from its pixels instead of from its bars (segments joined
 * into one blob, broken, or too short to be told from a blob): a place is lit when half of a small window on its
 * middle is (litShare). The cell's column spans from the middle of its left strokes to the middle of its right ones;
 * a cell whose counters (inside its upper and lower halves) are lit is a blot or a letter, not read.
 */
function sampleCell(cell: Cell, lean: Lean, top: number, height: number, stroke: number, lit: Lit): Map<string, number> | undefined {
  if (cell.bars.every((b) => b.upright) || cell.right - cell.left < 2 * stroke) return undefined;
  const { left, right } = cell;
  const middle = (left + right) / 2;
  const across = Math.max(1, stroke / 3);
  const alongX = Math.max(1, (right - left) / 5);
  const alongY = Math.max(1, height / 10);
  const share = (ux: number, y: number, dx: number, dy: number) => litShare(lit, lean, ux, y, dx, dy);
  if (share(middle, top + height / 4, alongX / 2, alongY) >= LIT_PLACE || share(middle, top + (3 * height) / 4, alongX / 2, alongY) >= LIT_PLACE) return undefined;
  return new Map([
    ['a', share(middle, top + stroke / 2, alongX, across)],
    ['g', share(middle, top + height / 2, alongX, across)],
    ['d', share(middle, top + height - stroke / 2, alongX, across)],
    ['f', share(left, top + height / 4, across, alongY)],
    ['e', share(left, top + (3 * height) / 4, across, alongY)],
    ['b', share(right, top + height / 4, across, alongY)],
    ['c', share(right, top + (3 * height) / 4, across, alongY)],
  ]);
}

/** Whether a cell of upright bars only is a 1 whose other half was missed as a bar: the pixels above or below its bar are lit too. */
function sampledOne(cell: Cell, lean: Lean, top: number, height: number, lit: Lit): boolean {
  if (cell.bars.length !== 1 || !cell.bars[0]!.upright) return false;
  const bar = cell.bars[0]!;
  const x = uprightX(lean, bar.blob.mx, bar.blob.my);
  const upper = bar.blob.my < top + height / 2;
  return litShare(lit, lean, x, top + (upper ? 0.75 : 0.25) * height, Math.max(1, bar.thickness / 3), height / 10) >= LIT_PLACE;
}

/**
 * Whether a cell of upright bars stands alone, as a 1 does, and is not a 4 or a 7 whose other segments were missed
 * as bars: left of it (a digit is about half as wide as high) neither the middle bar of a 4 nor the top bar of a 7
 * is lit.
 */
function oneAlone(cell: Cell, lean: Lean, top: number, height: number, lit: Lit): boolean {
  const x = (cell.left + cell.right) / 2;
  const width = height / 2;
  const across = Math.max(1, median(cell.bars.map((b) => b.thickness)) / 3);
  const on = (y: number) => litShare(lit, lean, x - width / 2, y, width / 5, across) >= LIT_PLACE;
  return !on(top + height / 2) && !on(top + across);
}

/**
 * Where the row's digits begin and how high they are at upright x: lines through the tops and bottoms of its framed
 * cells (a lying bar at the top and one at the bottom: 0, 2, 3, 5, 6, 8, 9), else of its tallest cells.
 */
function bandOf(cells: Cell[]): Band {
  const spans = cells.map(spanOf);
  const framedHeight = Math.max(...spans.map((s) => s.lyingBottom - s.lyingTop));
  const framed = spans.filter((s) => s.lyingBottom - s.lyingTop >= 0.75 * framedHeight && framedHeight > 0);
  const tallest = Math.max(...spans.map((s) => s.bottom - s.top));
  const [chosen, top, bottom] = framed.length
    ? [framed, framed.map((s) => s.lyingTop), framed.map((s) => s.lyingBottom)]
    : [spans.filter((s) => s.bottom - s.top >= 0.85 * tallest), [], []];
  const xs = chosen.map((s) => s.x);
  const topAt = lineThrough(xs, framed.length ? top : chosen.map((s) => s.top));
  const bottomAt = lineThrough(xs, framed.length ? bottom : chosen.map((s) => s.bottom));
  return (x) => ({ top: topAt(x), height: bottomAt(x) - topAt(x) + 1 });
}

/**
 * Whether a cell stands where a digit stands: its bars reach from the top third of the row's band to its bottom third,
 * it is narrower than high, and no upright bar of a cell without lying bars reaches beyond the band by more than a
 * stroke (the edge of a glass). A unit or a label beside the digits is smaller; a minus sign is checked on its own.
 */
function digitSized(c: Cell, band: Band, stroke: number): boolean {
  const { top, height } = band((c.left + c.right) / 2);
  const cellTop = Math.min(...c.bars.map((b) => b.blob.top));
  const cellBottom = Math.max(...c.bars.map((b) => b.blob.bottom));
  if (cellTop > top + height / 3 || cellBottom < top + (2 * height) / 3) return false;
  // Seven-segment digits are taller than wide (a box between letters of a word is not).
  if (c.bars.some((b) => !b.upright)) return c.right - c.left <= 0.8 * height;
  return cellTop >= top - stroke && cellBottom <= top + height + stroke;
}

/**
 * Whether the leading cell `c` is a minus sign before the digits `rest`: one lying bar at mid-height, standing about
 * where one more digit would (right edges compared: a 1 stands at its cell's right); a label's stroke further off is
 * no sign.
 */
function isMinusBefore(c: Cell, rest: Cell[], band: Band): boolean {
  if (!isMinus(c, band)) return false;
  const rights = rest.map((d) => d.right);
  const pitch = rights.length > 1 ? median(rights.slice(1).map((r, i) => r - rights[i]!)) : 0.7 * band(c.right).height;
  return rights[0]! - c.right <= 1.5 * pitch;
}

/** Whether a cell is one lying bar at mid-height. */
function isMinus(c: Cell, band: Band): boolean {
  if (c.bars.length !== 1 || c.bars[0]!.upright) return false;
  const { top, height } = band((c.left + c.right) / 2);
  const at = (c.bars[0]!.blob.my - top) / height;
  return at >= 0.35 && at <= 0.65;
}

/** A dot and its pixel value at its centre. */
interface Dot {
  blob: Blob;
  level: number;
}

/** Bars much dimmer than the row's bright ones (below LIT_SHARE of its upper quartile) are unlit "ghost" segments. */
const LIT_SHARE = 0.65;
function litLevel(row: Bar[]): number {
  const levels = row.map((b) => b.level).sort((a, b) => a - b);
  return LIT_SHARE * levels[Math.floor(0.75 * (levels.length - 1))]!;
}

/**
 * The row's cells and band, once bars reaching out of the band by more than half a stroke (the edge of a glass
 * above the digits, the top of a letter beside them) are left out, and the cells are drawn again without them.
 */
function cellsInBand(row: Bar[], lean: Lean, stroke: number): { cells: Cell[]; band: Band } {
  const cells = cellsOf(row, lean, stroke);
  const band = bandOf(cells);
  const inside = row.filter((b) => {
    const { top, height } = band(uprightX(lean, b.blob.mx, b.blob.my));
    return b.blob.top >= top - stroke / 2 && b.blob.bottom <= top + height + stroke / 2;
  });
  if (inside.length === row.length || inside.length < 3) return { cells, band };
  const again = cellsOf(inside, lean, stroke);
  return { cells: again, band: bandOf(again) };
}

/** Bars more than SEGMENT_SPREAD times as long as the row's typical bar are not segments (the edge of a glass, a frame, a rule). */
const SEGMENT_SPREAD = 3;

/**
 * A row's segments and the value from which a pixel counts as lit: bars of a segment's length (SEGMENT_SPREAD; a
 * lying piece less than half as long as the row's lying bars is a point or a stray cut out of a blob), and with
 * `ghosts` (LEDs) only those bright enough to be lit (litLevel).
 */
function segmentsOf(candidates: Bar[], ghosts: boolean): { segments: Bar[]; lit: number } {
  const typical = median(candidates.map((b) => b.length));
  const lying = candidates.filter((b) => !b.upright);
  const typicalLying = lying.length ? median(lying.map((b) => b.length)) : 0;
  const sized = candidates.filter((b) => b.length <= SEGMENT_SPREAD * typical && (b.upright || b.length >= 0.5 * typicalLying));
  const lit = ghosts && sized.length ? litLevel(sized) : 0;
  return { segments: sized.filter((b) => b.level >= lit), lit };
}

/**
 * The digit a cell shows: a cell of upright bars is a 1 when it stands alone; any other cell is read from its bars,
 * with the places its pixels show lit added (a segment missed as a bar: joined to another, too short). A place
 * neither clearly lit nor clearly dark (a broken segment) leaves the digit unread rather than read as another.
 */
function readCell(c: Cell, lean: Lean, top: number, height: number, stroke: number, lit: Lit): string | undefined {
  const bars = placesOf(c, lean, top, height);
  if (!bars) return undefined;
  if (c.bars.every((b) => b.upright)) return oneAlone(c, lean, top, height, lit) && (glyphOf(bars) === '1' || sampledOne(c, lean, top, height, lit)) ? '1' : undefined;
  const sampled = sampleCell(c, lean, top, height, stroke, lit);
  if (!sampled) return glyphOf(bars);
  const places = new Set([...bars, ...[...sampled].filter(([, v]) => v >= LIT_PLACE).map(([p]) => p)]);
  const unsure = [...sampled].some(([p, v]) => !places.has(p) && v > DARK_PLACE);
  return unsure ? undefined : glyphOf(places);
}

/** The box around some bars. */
function boxOf(bars: Bar[]): Box {
  const blobs = bars.map((b) => b.blob);
  const left = Math.min(...blobs.map((b) => b.left));
  const top = Math.min(...blobs.map((b) => b.top));
  return { left, top, width: Math.max(...blobs.map((b) => b.right)) - left + 1, height: Math.max(...blobs.map((b) => b.bottom)) - top + 1 };
}

/** One display row's value: its digits left to right, with the decimal points, colon and leading minus between them. */
function readRow(candidates: Bar[], allDots: Dot[], image: Omit<Lit, 'level'> & { ghosts: boolean }): SegmentWord | undefined {
  const { segments: row, lit } = segmentsOf(candidates, image.ghosts);
  if (row.length < 3) return undefined;
  const litImage: Lit = { ...image, level: lit };
  // Unlit decimal points are as dim as unlit segments.
  const dots = allDots.filter((d) => d.level >= lit).map((d) => d.blob);
  const stroke = median(row.map((b) => b.thickness));
  const uprights = row.filter((b) => b.upright);
  const rowBox = boxOf(row);
  const lean: Lean = { slope: uprights.length ? median(uprights.map((b) => b.slope)) : 0, y0: rowBox.top + rowBox.height / 2 };
  const { cells, band } = cellsInBand(row, lean, stroke);
  // What stands beside the digits and is not digit-sized (a unit, the edge of the glass) is not read.
  while (cells.length && !digitSized(cells[cells.length - 1]!, band, stroke)) cells.pop();
  while (cells.length && !digitSized(cells[0]!, band, stroke) && !isMinus(cells[0]!, band)) cells.shift();
  if (cells.length > 1 && isMinus(cells[0]!, band) && !isMinusBefore(cells[0]!, cells.slice(1), band)) cells.shift();
  const minus = cells.length > 1 && isMinusBefore(cells[0]!, cells.slice(1), band) ? cells.shift()! : undefined;
  // A lone cell is not read here (a box or a frame has the bars of a 0; lone-digit.ts reads a digit that fills the
  // frame), nor a row of 1s (the gaps between letters of a word).
  if (cells.length < 2 || cells.every((c) => c.bars.every((b) => b.upright))) return undefined;
  const digits = cells.map((c) => {
    const { top, height } = band((c.left + c.right) / 2);
    return height >= Math.max(MIN_DIGIT_HEIGHT, 3 * stroke) && digitSized(c, band, stroke) ? readCell(c, lean, top, height, stroke, litImage) : undefined;
  });
  if (digits.some((d) => d === undefined)) return undefined;
  let text = minus ? '-' : '';
  for (let i = 0; i < cells.length; i++) {
    text += digits[i]!;
    const next = cells[i + 1];
    if (next) text += separator(cells[i]!, next, dots, lean, band, stroke, litImage);
  }
  const used = [...(minus ? minus.bars : []), ...cells.flatMap((c) => c.bars)];
  const confidence = 70 + 25 * (used.filter((b) => b.solidity >= 0.85).length / used.length);
  return { text, box: boxOf(used), confidence };
}

/**
 * How far right (side 1) or left (side -1) a cell's strokes reach, in upright x: its upright bars' outer edges, and
 * where most of its lying bars end (a point joined to one lying bar lengthens only that one).
 */
function reach(cell: Cell, lean: Lean, side: 1 | -1): number {
  const uprights = cell.bars.filter((b) => b.upright).map((b) => uprightX(lean, b.blob.mx, b.blob.my) + (side * b.thickness) / 2);
  const ends = cell.bars.filter((b) => !b.upright).map((b) => uprightX(lean, side > 0 ? b.blob.right : b.blob.left, b.blob.my)).sort((a, b) => a - b);
  const lying = ends.length ? [ends[side > 0 ? Math.floor((ends.length - 1) / 2) : Math.ceil((ends.length - 1) / 2)]!] : [];
  return side > 0 ? Math.max(...uprights, ...lying) : Math.min(...uprights, ...lying);
}

/**
 * Whether a decimal point joined to a digit's stroke (glow, a point set close to the digit) stands low between two
 * cells: where the gap between their strokes leaves room for one (a stroke and a fifth), at least two fifths of the
 * stroke-sized square just right of the first digit's strokes, on the digits' bottom line, are lit.
 */
function pointInGap(cell: Cell, next: Cell, lean: Lean, bottom: number, stroke: number, lit: Lit): boolean {
  const from = reach(cell, lean, 1);
  const to = reach(next, lean, -1);
  if (to - from < 1.2 * stroke) return false;
  const middle = from + stroke / 2;
  let count = 0;
  let all = 0;
  for (let y = Math.round(bottom - stroke); y <= Math.round(bottom); y++) {
    if (y < 0 || y >= lit.height) continue;
    const shift = (y - lean.y0) * lean.slope;
    for (let x = Math.round(middle - stroke / 2 + shift); x <= Math.round(middle + stroke / 2 + shift); x++) {
      if (x < 0 || x >= lit.width) continue;
      all++;
      const p = y * lit.width + x;
      if (lit.mask[p] && lit.pixels[p]! >= lit.level) count++;
    }
  }
  return all > 0 && count >= 0.4 * all;
}

/** What stands between two digits: a decimal point (one dot low down), a colon (two dots, none low down), or nothing. */
function separator(cell: Cell, next: Cell, dots: Blob[], lean: Lean, band: Band, stroke: number, lit: Lit): string {
  const { top, height } = band((cell.right + next.left) / 2);
  // Points stand in the gap between the two digits' strokes (a corner cut off a stroke stands inside a digit).
  const from = reach(cell, lean, 1) - stroke / 2;
  const to = reach(next, lean, -1) + stroke / 2;
  const between = dots.filter((d) => {
    const x = uprightX(lean, d.mx, d.my);
    const size = Math.max(bw(d), bh(d));
    return size >= 0.5 * stroke && size <= 2.4 * stroke && x > from && x < to && d.top >= top - stroke && d.bottom <= top + height + stroke;
  });
  const low = between.filter((d) => d.my > top + 0.8 * height);
  const colon = between.filter((d) => d.my > top + 0.15 * height && d.my < top + 0.85 * height);
  // A colon's two points stand one above the other, one in each half of the digits.
  const [upper, lower] = [...colon].sort((a, b) => a.my - b.my);
  const stacked = colon.length === 2 && upper!.my < top + height / 2 && lower!.my > top + height / 2 && Math.abs(uprightX(lean, upper!.mx, upper!.my) - uprightX(lean, lower!.mx, lower!.my)) <= stroke;
  if (stacked && low.length === 0) return ':';
  if (colon.length > 0) return '';
  if (low.length === 1) return '.';
  return low.length === 0 && colon.length === 0 && pointInGap(cell, next, lean, top + height, stroke, lit) ? '.' : '';
}

/** Mean pixel value at 9 points along the bar's middle line. */
function levelOf(bar: Bar, pixels: Uint8Array, width: number, height: number): number {
  let sum = 0;
  for (let i = -4; i <= 4; i++) {
    const d = (i / 4) * 0.35 * bar.length;
    const x = Math.round(bar.upright ? bar.blob.mx + bar.slope * d : bar.blob.mx + d);
    const y = Math.round(bar.upright ? bar.blob.my + d : bar.blob.my + bar.slope * d);
    sum += pixels[Math.min(height - 1, Math.max(0, y)) * width + Math.min(width - 1, Math.max(0, x))]!;
  }
  return sum / 9;
}

/**
 * Whether a blob may be a digit's segments joined together: as high as half a digit or more and at most a digit of
 * MAX_STROKE strokes (8 strokes high, 6 wide), with room inside (a solid block or a speck is no digit).
 */
function mayBeJoined(b: Blob): boolean {
  const f = fill(b);
  return b.count >= 12 && bh(b) >= MIN_DIGIT_HEIGHT / 2 && bh(b) <= 8 * MAX_STROKE && bw(b) <= 6 * MAX_STROKE && f >= 0.15 && f <= 0.8;
}

/** Buffers the passes over a frame's levels share (sized for the whole frame). */
interface Scratch {
  mask: Uint8Array;
  labels: Int32Array;
  /** Lit strokes light on dark: the mean of the brightest channel (a red or blue LED is bright in it) and the grey (white segments behind red glass are bright in it). */
  light: Uint8Array;
  /** Dark strokes made light: the grey inverted (LCDs). */
  ink: Uint8Array;
}

/** The buffers of the last frame size read, kept for the next frame of that size (the reader runs on every numerical frame). */
let kept: { width: number; height: number; scratch: Scratch } | undefined;
function scratchFor(width: number, height: number): Scratch {
  if (kept?.width !== width || kept.height !== height) {
    const size = width * height;
    kept = { width, height, scratch: { mask: new Uint8Array(size), labels: new Int32Array(size), light: new Uint8Array(size), ink: new Uint8Array(size) } };
  }
  return kept.scratch;
}

/**
 * Values read from the displays whose strokes are brighter than their glass in `pixels` (one level of the frame);
 * with `ghosts`, bars much dimmer than a row's bright ones are unlit segments.
 */
function readLit(pixels: Uint8Array, width: number, height: number, scratch: Scratch, ghosts: boolean): SegmentWord[] {
  const labels = scratch.labels.subarray(0, width * height).fill(0);
  const found = blobsOf(litMask(pixels, width, height, scratch), width, labels).filter((b) => b.count >= 4 && bh(b) < 0.9 * height && bw(b) < 0.9 * width);
  const blobs = found.flatMap((b) => (mayBeJoined(b) && !barOf(b) && !isDot(b) ? refine(b, pixels, width, labels) : [b]));
  const all = blobs.flatMap((b) => barOf(b) ?? []);
  const bars = all.filter((b) => b.thickness <= MAX_STROKE);
  for (const bar of bars) bar.level = levelOf(bar, pixels, width, height);
  if (bars.length < 3) return [];
  const dots = blobs.filter(isDot).map((blob) => ({ blob, level: pixels[Math.round(blob.my) * width + Math.round(blob.mx)]! }));
  // A value with bars too thick for this level among its digits (a 6 whose lying bars were left out reads as a 1) is
  // read on a halved copy.
  const thick = all.filter((b) => b.thickness > MAX_STROKE);
  const holdsThick = (w: SegmentWord) => thick.some((b) => b.blob.mx >= w.box.left && b.blob.mx < w.box.left + w.box.width && b.blob.my >= w.box.top && b.blob.my < w.box.top + w.box.height);
  return rowsOf(bars).flatMap((row) => (row.length >= 3 ? (readRow(row, dots, { pixels, mask: scratch.mask, width, height, ghosts }) ?? []) : [])).filter((w) => !holdsThick(w));
}

/** The frame's pixels the reader looks at: each pixel's brightest channel and its grey. */
export interface SegmentImage {
  width: number;
  height: number;
  bright: Uint8Array;
  grey: Uint8Array;
}

const overlaps = (a: Box, b: Box) => Math.min(a.left + a.width, b.left + b.width) > Math.max(a.left, b.left) && Math.min(a.top + a.height, b.top + b.height) > Math.max(a.top, b.top);

/**
 * Reads the seven-segment values on a frame: lit strokes on dark glass and dark strokes on light glass, each on the
 * frame and on halved copies (thick strokes). Where readings overlap, the one with the most digits is kept, then the
 * one read on the finer level (more pixels show a point apart from its digit). A frame with no value may show one
 * digit that fills it (lone-digit.ts).
 */
export function readSevenSegment(image: SegmentImage): SegmentWord[] {
  const scratch = scratchFor(image.width, image.height);
  const { light, ink } = scratch;
  // Plain views: element access on a Buffer (a Uint8Array subclass) is slower in hot loops.
  const bright = new Uint8Array(image.bright.buffer, image.bright.byteOffset, image.bright.length);
  const grey = new Uint8Array(image.grey.buffer, image.grey.byteOffset, image.grey.length);
  for (let p = 0; p < ink.length; p++) {
    const g = grey[p]!;
    light[p] = (bright[p]! + g + 1) >> 1;
    ink[p] = 255 - g;
  }
  // Each reading with the scale of the level it was read on (1, 2, 4... frame pixels a level pixel).
  const found: { word: SegmentWord; scale: number }[] = [];
  for (const pixels of [light, ink]) {
    // Unlit LED segments can show almost as bright as lit ones; an LCD's unlit segments are too faint to be lit at all.
    const ghosts = pixels === light;
    let level = { pixels, width: image.width, height: image.height };
    for (let k = 0, scale = 1; k <= LEVELS && Math.min(level.width, level.height) >= 2 * MIN_DIGIT_HEIGHT; k++, scale *= 2) {
      for (const word of readLit(level.pixels, level.width, level.height, scratch, ghosts)) {
        const b = word.box;
        found.push({ scale, word: { ...word, box: { left: b.left * scale, top: b.top * scale, width: b.width * scale, height: b.height * scale } } });
      }
      level = halved(level.pixels, level.width, level.height);
    }
  }
  const words: SegmentWord[] = [];
  const digits = (w: SegmentWord) => w.text.replace(/[^0-9]/g, '').length;
  for (const { word } of found.sort((a, b) => digits(b.word) - digits(a.word) || a.scale - b.scale)) if (!words.some((w) => overlaps(w.box, word.box))) words.push(word);
  return words.length ? words : readLoneDigit(image);
}
