import { GLYPHS } from './segment-glyphs.js';
import type { SegmentImage, SegmentWord } from './seven-segment.js';

/**
 * A reader for a frame that shows one seven-segment digit and little else: a close-up of a floor indicator or a
 * counter, a digit cut out of a display. The display reader needs two digits side by side to tell a digit from a
 * box; here the digit's size tells it instead: it spans most of the frame's height. The frame is looked at small,
 * strokes are pixels that stand out from a wide neighbourhood, the digit is the box of the strokes (less the
 * glass's edges and pieces of neighbouring digits cut by the frame's sides), and each of its seven places is
 * sampled along its middle: clearly lit, clearly dark, or the digit is not read.
 */

/** Rows of the small copy the digit is looked for in. */
const WORK_HEIGHT = 48;
/** The digit spans at least this share of the frame's height, and is at most MAX_WIDTH times as wide as high. */
const MIN_SHARE = 0.55;
const MAX_WIDTH = 1.2;
/**
 * A stroke pixel is brighter than the mean of the square around it by `spread` times the square's standard
 * deviation, and by FLOOR grey levels at least; `side` is the square's side as a share of the frame's height. Each
 * kind of stroke is read at every setting (readLoneDigit says which readings count).
 */
const FLOOR = 8;
const SETTINGS = [{ spread: 0.6, side: 1 / 2 }, { spread: 0.6, side: 2 / 3 }];
/** Rows or columns lit across this share of the frame are the edge of the glass, not a segment. */
const BAND = 0.85;
/** Runs of stroke pixels up to this share of the digit's height cross a stroke; longer ones run along it. */
const ACROSS = 0.3;
/** Leans looked at (x per y, either way). */
const MAX_SLANT = 0.36;
/** A place is lit from this share of its samples and dark up to the lower one; between them the digit is unsure. */
const LIT = 0.5;
const DARK = 0.25;
/**
 * A place's line is looked for this share of the digit's height (lying places) or width (upright ones) either side
 * of where it should be: a box edge off by a pixel or two, a segment set in from the digit's corners.
 */
const REACH = 0.08;
/**
 * A place partly lit in the mask is lit when its brightness is HALF_LIT of the way from the glass to the lit places'
 * brightness, dark below LEAST_LIT of it, unsure between them.
 */
const HALF_LIT = 0.5;
const LEAST_LIT = 0.3;
/** A place is lit only where its pixels are this share of the way from the glass to the brightest place. */
const GHOST = 0.3;

/** A small copy of the frame: one kind of stroke made bright. */
interface Small {
  pixels: Float32Array;
  width: number;
  height: number;
  /** Frame pixels per small pixel. */
  scale: number;
  /** The median pixel: the glass, which most of a lone digit's frame shows. */
  glass: number;
}

/**
 * The frame's two kinds of stroke, shrunk by area averaging to WORK_HEIGHT rows: dark on light (ink) and light on
 * dark. A block of more than 8x8 pixels is averaged over every `step`th row and column (4 to 7 of them each way).
 */
function shrunk(image: SegmentImage): { ink: Small; light: Small } {
  const { width, height, grey, bright } = image;
  const scale = height / WORK_HEIGHT;
  const step = Math.max(1, Math.floor(scale / 4));
  const w = Math.max(1, Math.round(width / scale));
  const ink = new Float32Array(w * WORK_HEIGHT);
  const light = new Float32Array(w * WORK_HEIGHT);
  for (let y = 0; y < WORK_HEIGHT; y++) {
    const y0 = Math.floor(y * scale);
    const y1 = Math.max(y0 + 1, Math.floor((y + 1) * scale));
    for (let x = 0; x < w; x++) {
      const x0 = Math.floor((x * width) / w);
      const x1 = Math.max(x0 + 1, Math.floor(((x + 1) * width) / w));
      let g = 0;
      let b = 0;
      let n = 0;
      for (let yy = y0; yy < y1; yy += step) for (let xx = x0; xx < x1; xx += step) {
        g += grey[yy * width + xx]!;
        b += bright[yy * width + xx]!;
        n++;
      }
      ink[y * w + x] = 255 - g / n;
      // As the display reader's light strokes: the brightest channel (coloured LEDs) and the grey, averaged.
      light[y * w + x] = (g + b) / (2 * n);
    }
  }
  const small = (pixels: Float32Array): Small => ({ pixels, width: w, height: WORK_HEIGHT, scale, glass: pixels.slice().sort()[pixels.length >> 1]! });
  return { ink: small(ink), light: small(light) };
}

/** The stroke pixels of a small copy at one setting (SETTINGS), less the rows and columns of the glass's edge (BAND). */
function strokeMask(small: Small, spread: number, side: number): Uint8Array {
  const { pixels, width, height } = small;
  const stride = width + 1;
  const sums = new Float64Array(stride * (height + 1));
  const squares = new Float64Array(stride * (height + 1));
  for (let y = 0; y < height; y++) {
    let row = 0;
    let row2 = 0;
    for (let x = 0; x < width; x++) {
      const v = pixels[y * width + x]!;
      row += v;
      row2 += v * v;
      sums[(y + 1) * stride + x + 1] = sums[y * stride + x + 1]! + row;
      squares[(y + 1) * stride + x + 1] = squares[y * stride + x + 1]! + row2;
    }
  }
  const boxSum = (t: Float64Array, x0: number, y0: number, x1: number, y1: number) => t[y1 * stride + x1]! - t[y0 * stride + x1]! - t[y1 * stride + x0]! + t[y0 * stride + x0]!;
  const r = Math.round((side * height) / 2);
  const mask = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) {
    const y0 = Math.max(0, y - r);
    const y1 = Math.min(height, y + r + 1);
    for (let x = 0; x < width; x++) {
      const x0 = Math.max(0, x - r);
      const x1 = Math.min(width, x + r + 1);
      const n = (y1 - y0) * (x1 - x0);
      const mean = boxSum(sums, x0, y0, x1, y1) / n;
      const deviation = Math.sqrt(Math.max(0, boxSum(squares, x0, y0, x1, y1) / n - mean * mean));
      if (pixels[y * width + x]! > mean + Math.max(spread * deviation, FLOOR)) mask[y * width + x] = 1;
    }
  }
  for (let y = 0; y < height; y++) {
    let n = 0;
    for (let x = 0; x < width; x++) n += mask[y * width + x]!;
    if (n >= BAND * width) mask.fill(0, y * width, (y + 1) * width);
  }
  for (let x = 0; x < width; x++) {
    let n = 0;
    for (let y = 0; y < height; y++) n += mask[y * width + x]!;
    if (n >= BAND * height) for (let y = 0; y < height; y++) mask[y * width + x] = 0;
  }
  return mask;
}

interface Component {
  left: number;
  top: number;
  right: number;
  bottom: number;
  pixels: number[];
}

/** The 8-connected components of a mask. */
function componentsOf(mask: Uint8Array, width: number, height: number): Component[] {
  const seen = new Uint8Array(mask.length);
  const out: Component[] = [];
  for (let start = 0; start < mask.length; start++) {
    if (!mask[start] || seen[start]) continue;
    const c: Component = { left: width, top: height, right: -1, bottom: -1, pixels: [] };
    const stack = [start];
    seen[start] = 1;
    while (stack.length) {
      const p = stack.pop()!;
      const x = p % width;
      const y = (p - x) / width;
      c.pixels.push(p);
      c.left = Math.min(c.left, x);
      c.right = Math.max(c.right, x);
      c.top = Math.min(c.top, y);
      c.bottom = Math.max(c.bottom, y);
      for (let ny = Math.max(0, y - 1); ny <= Math.min(height - 1, y + 1); ny++) for (let nx = Math.max(0, x - 1); nx <= Math.min(width - 1, x + 1); nx++) {
        const q = ny * width + nx;
        if (mask[q] && !seen[q]) {
          seen[q] = 1;
          stack.push(q);
        }
      }
    }
    out.push(c);
  }
  return out;
}

/** Calls `visit` with each run of set pixels along the rows (or columns): its first pixel's index, length and step. */
function forEachRun(set: Uint8Array, width: number, height: number, alongRows: boolean, visit: (first: number, length: number, step: number) => void): void {
  const [outer, inner, step] = alongRows ? [height, width, 1] : [width, height, width];
  for (let i = 0; i < outer; i++) {
    const origin = alongRows ? i * width : i;
    let n = 0;
    for (let j = 0; j <= inner; j++) {
      if (j < inner && set[origin + j * step]) n++;
      else if (n) {
        visit(origin + (j - n) * step, n, step);
        n = 0;
      }
    }
  }
}

/** The middle value (the upper one of an even count), 0 for none. */
function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
}

/** Where the digit's strokes are once its lean is taken out: upright x is x - (y - y0) * slope. */
interface Upright {
  slope: number;
  y0: number;
  left: number;
  right: number;
}

/** The lean that stacks the upright strokes' pixels (those in short runs along their row) into the sharpest columns. */
function uprightOf(set: Uint8Array, pixels: number[], width: number, height: number, top: number, bottom: number): Upright {
  const y0 = (top + bottom) / 2;
  const upright: number[] = [];
  forEachRun(set, width, height, true, (first, length) => {
    if (length <= ACROSS * (bottom - top + 1)) for (let k = 0; k < length; k++) upright.push(first + k);
  });
  const at = (p: number, slope: number) => (p % width) - (Math.floor(p / width) - y0) * slope;
  let best = { slope: 0, sharpness: -1 };
  const columns = new Float64Array(width + 2 * height);
  for (let slope = -MAX_SLANT; slope <= MAX_SLANT + 1e-9; slope += 0.02) {
    columns.fill(0);
    for (const p of upright) columns[Math.round(at(p, slope)) + height]!++;
    let sharpness = 0;
    for (const n of columns) sharpness += n * n;
    if (sharpness > best.sharpness) best = { slope, sharpness };
  }
  const xs = pixels.map((p) => at(p, best.slope));
  return { slope: best.slope, y0, left: Math.min(...xs), right: Math.max(...xs) };
}

/**
 * Share of stroke pixels along a place's middle line, from `from` to `to` in upright x, in a band 2 * half + 1
 * pixels wide, and the band's mean brightness: the best of that line and of the lines moved up to `reach` pixels
 * across it.
 */
function litAlong(mask: Uint8Array, small: Small, lean: Upright, from: [number, number], to: [number, number], half: number, reach: number): { share: number; level: number } {
  const { width, height, pixels } = small;
  const lying = from[1] === to[1];
  let best = { share: 0, level: 0 };
  for (let o = -reach; o <= reach; o++) {
    let lit = 0;
    let all = 0;
    let sum = 0;
    for (let i = 0; i <= 12; i++) {
      const ux = from[0] + ((to[0] - from[0]) * i) / 12 + (lying ? 0 : o);
      const y = from[1] + ((to[1] - from[1]) * i) / 12 + (lying ? o : 0);
      for (let d = -half; d <= half; d++) {
        const sy = Math.round(lying ? y + d : y);
        const sx = Math.round((lying ? ux : ux + d) + (sy - lean.y0) * lean.slope);
        all++;
        if (sx < 0 || sy < 0 || sx >= width || sy >= height) continue;
        sum += pixels[sy * width + sx]!;
        if (mask[sy * width + sx]) lit++;
      }
    }
    if (lit / all > best.share || (lit === 0 && best.share === 0 && sum / all > best.level)) best = { share: lit / all, level: sum / all };
  }
  return best;
}

/** The least share of the upright box's width lit in a row from `from` to `to` (where a 1's two segments meet). */
function leastAcross(set: Uint8Array, width: number, lean: Upright, from: number, to: number): number {
  let least = 1;
  for (let y = Math.round(from); y <= Math.round(to); y++) {
    let lit = 0;
    for (let ux = Math.floor(lean.left); ux <= Math.ceil(lean.right); ux++) {
      const x = Math.round(ux + (y - lean.y0) * lean.slope);
      if (x >= 0 && x < width && set[y * width + x]) lit++;
    }
    least = Math.min(least, lit / (lean.right - lean.left + 1));
  }
  return least;
}

interface Reading {
  text: string;
  /** In the small copy's pixels. */
  box: { left: number; top: number; right: number; bottom: number };
  /** 0-1: how far the least clear place is from unsure. */
  sure: number;
}

/** The digit a small copy's strokes show at one setting, or undefined. */
function readSmall(small: Small, spread: number, side: number): Reading | undefined {
  const { width, height } = small;
  const mask = strokeMask(small, spread, side);
  const found = componentsOf(mask, width, height).filter((c) => {
    const w = c.right - c.left + 1;
    return c.pixels.length >= 0.004 * width * height && w < 0.9 * width && c.bottom - c.top + 1 < 0.97 * height;
  });
  // Pieces cut by a side of the frame are a neighbouring digit's strokes when what stays is a digit's height.
  const inside = found.filter((c) => c.left > 0 && c.right < width - 1);
  const spans = (cs: Component[]) => Math.max(...cs.map((c) => c.bottom)) - Math.min(...cs.map((c) => c.top)) + 1;
  const parts = inside.length && spans(inside) >= MIN_SHARE * height ? inside : found.filter((c) => !((c.left === 0 || c.right === width - 1) && c.right - c.left + 1 < 0.25 * width));
  if (!parts.length) return undefined;
  const top = Math.min(...parts.map((c) => c.top));
  const bottom = Math.max(...parts.map((c) => c.bottom));
  const h = bottom - top + 1;
  // A digit cut by both the top and the bottom of the frame is not there to read (nor is what spans the glass).
  if (h < MIN_SHARE * height || (top === 0 && bottom === height - 1)) return undefined;
  const pixels = parts.flatMap((c) => c.pixels);
  const set = new Uint8Array(mask.length);
  for (const p of pixels) set[p] = 1;
  const lean = uprightOf(set, pixels, width, height, top, bottom);
  const w = lean.right - lean.left + 1;
  if (w > MAX_WIDTH * h) return undefined;
  // Stroke widths: upright strokes' across rows, lying ones' across columns.
  const across = (alongRows: boolean) => {
    const runs: number[] = [];
    forEachRun(set, width, height, alongRows, (_, length) => length <= ACROSS * h && runs.push(length));
    return Math.max(2, Math.min(0.25 * h, median(runs) || 0.12 * h));
  };
  const sw = across(true);
  const sh = across(false);
  const half = Math.max(1, Math.round(Math.min(sw, sh) / 4));
  const [L, R, T, B] = [lean.left + sw / 2, lean.right - sw / 2, top + sh / 2, bottom - sh / 2];
  const M = (T + B) / 2;
  const [dx, dy] = [0.9 * sw, 0.9 * sh];
  const box = { left: lean.left, top, right: lean.right, bottom };
  const along = (from: [number, number], to: [number, number]) => litAlong(mask, small, lean, from, to, half, Math.max(half, Math.round(REACH * (from[1] === to[1] ? h : w))));
  // Strokes are brighter than the glass (the white between a printed H's stems is not).
  const { glass } = small;
  // A digit under 0.4 as wide as high is a 1: its column lit above and below the middle, with the gap between its
  // two segments there (a line or an edge has none).
  if (w < 0.4 * h) {
    const x = (lean.left + lean.right) / 2;
    const [upper, lower] = [along([x, T + dy], [x, M - dy / 2]), along([x, M + dy / 2], [x, B - dy])];
    const sure = Math.min(upper.share, lower.share);
    return sure >= LIT && Math.min(upper.level, lower.level) >= glass + FLOOR && leastAcross(set, width, lean, M - 0.15 * h, M + 0.15 * h) <= DARK ? { text: '1', box, sure } : undefined;
  }
  const sampled: Record<string, { share: number; level: number }> = {
    a: along([L + dx, T], [R - dx, T]),
    g: along([L + dx, M], [R - dx, M]),
    d: along([L + dx, B], [R - dx, B]),
    f: along([L, T + dy], [L, M - dy]),
    b: along([R, T + dy], [R, M - dy]),
    e: along([L, M + dy], [L, B - dy]),
    c: along([R, M + dy], [R, B - dy]),
  };
  // A place much dimmer than the brightest is an unlit "ghost" segment whose edges stood out, or glass: dark.
  const levels = Object.values(sampled).map((s) => s.level);
  const least = Math.max(glass + FLOOR, glass + GHOST * (Math.max(...levels) - glass));
  const shown = Object.fromEntries(Object.entries(sampled).map(([k, s]) => [k, s.level >= least ? s.share : 0]));
  // A place partly lit in the mask (a faint or short segment) is judged by its brightness against the lit places'.
  const litLevels = Object.entries(shown).filter(([, v]) => v >= LIT).map(([k]) => sampled[k]!.level);
  const lit = litLevels.length ? median(litLevels) : 0;
  const places = Object.fromEntries(Object.entries(shown).map(([k, v]) => {
    if (v <= DARK || v >= LIT || !litLevels.length) return [k, v];
    const at = (sampled[k]!.level - glass) / (lit - glass);
    return [k, at >= HALF_LIT ? 1 : at <= LEAST_LIT ? 0 : v];
  }));
  const shares = Object.values(places);
  if (shares.some((v) => v > DARK && v < LIT)) return undefined;
  const text = GLYPHS.get(Object.keys(places).filter((k) => places[k]! >= LIT).sort().join(''));
  // A 1 fills its box (above), unless the unlit segments of an 8 around it widen the box; a wide box with only its
  // right side lit holds something else.
  const ghosts = Object.values(sampled).filter((s) => s.share > DARK && s.level < least).length;
  return text && (text !== '1' || ghosts >= 2) ? { text, box, sure: Math.min(...shares.map((v) => (v >= LIT ? v : 1 - v))) } : undefined;
}

/** The one digit a frame shows when one digit spans most of its height; otherwise nothing. */
export function readLoneDigit(image: SegmentImage): SegmentWord[] {
  if (image.height < WORK_HEIGHT / 2 || image.width < 8) return [];
  const { ink, light } = shrunk(image);
  // Each kind of stroke reads a digit when every setting reads the same one; a frame shows one kind (an LCD's glass
  // between dark strokes may pass for light strokes, but not at every setting).
  const kinds = [ink, light].map((small) => SETTINGS.map(({ spread, side }) => readSmall(small, spread, side)).map((r) => (r ? { ...r, scale: small.scale } : undefined)));
  const agreed = kinds.filter((rs) => rs.every((r) => r && r.text === rs[0]!.text)).map((rs) => rs[0]!);
  const readings = agreed.length ? agreed : kinds.flat().filter((r) => r !== undefined);
  if (!readings.length || readings.some((r) => r.text !== readings[0]!.text)) return [];
  const { text, box, sure, scale } = readings[0]!;
  const left = Math.round(box.left * scale);
  const top = Math.round(box.top * scale);
  return [{
    text,
    box: { left, top, width: Math.round((box.right + 1) * scale) - left, height: Math.round((box.bottom + 1) * scale) - top },
    confidence: Math.round(70 + 25 * sure),
  }];
}
