import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { seededRandom } from '@frametext/text-analysis';
import sharp from 'sharp';
import { ffmpeg, h264Args } from './ffmpeg.js';
import type { GeneratedVideo, TimedText } from './videos.js';

/** The kinds of display the corpus draws: lit strokes in a colour on dark glass, or dark strokes on a grey LCD. */
export const SEGMENT_STYLES = ['red', 'green', 'cyan', 'amber', 'lcd'] as const;
export type SegmentStyle = (typeof SEGMENT_STYLES)[number];

interface StylePaint {
  /** Page behind the display, the display's glass, lit strokes, unlit ("ghost") strokes, label text. */
  glass: string;
  lit: string;
  ghost: string;
  glow: boolean;
}

const PAINT: Record<SegmentStyle, StylePaint> = {
  red: { glass: '#160606', lit: '#ff3322', ghost: '#2a0d0b', glow: true },
  green: { glass: '#041108', lit: '#44ff66', ghost: '#0b2412', glow: true },
  cyan: { glass: '#03101a', lit: '#40d8ff', ghost: '#0a2230', glow: true },
  amber: { glass: '#130b01', lit: '#ffb224', ghost: '#2a1c06', glow: true },
  lcd: { glass: '#a8b39a', lit: '#23281f', ghost: '#99a48b', glow: false },
};

/** Which of the segments a..g (top, upper right, lower right, bottom, lower left, upper left, middle) each glyph lights. */
const GLYPHS: Record<string, string> = {
  '0': 'abcdef', '1': 'bc', '2': 'abdeg', '3': 'abcdg', '4': 'bcfg', '5': 'acdfg', '6': 'acdefg', '7': 'abc', '8': 'abcdefg', '9': 'abcdfg', '-': 'g', ' ': '',
};

/** What a display shows: its label, its unit, how many digit cells it has, and the value it shows in second `s`. */
interface DisplayKind {
  label: string;
  unit: string;
  cells: number;
  /** Cell after which a colon sits (clocks), if any. */
  colonAfter?: number;
  value: (s: number, r: number) => string;
}

const fixed = (x: number, d: number) => x.toFixed(d);
const KINDS: DisplayKind[] = [
  { label: 'VOLTAGE', unit: 'V', cells: 4, value: (s, r) => fixed(3 + ((r * 30 + s * 0.37) % 27), 2) },
  { label: 'CURRENT', unit: 'A', cells: 4, value: (s, r) => fixed((r * 2 + s * 0.013) % 3, 3) },
  { label: 'TIME', unit: '', cells: 4, colonAfter: 1, value: (s, r) => { const m = Math.floor(r * 1440 + s) % 1440; return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`; } },
  { label: 'TEMP', unit: 'C', cells: 3, value: (s, r) => fixed(-9.5 + ((r * 30 + s * 0.7) % 30), 1) },
  { label: 'NET WEIGHT', unit: 'kg', cells: 5, value: (s, r) => fixed((r * 40 + s * 0.137) % 60, 3) },
  { label: 'LITRES', unit: 'L', cells: 5, value: (s, r) => fixed(r * 20 + s * 0.61, 2) },
  { label: 'FREQ', unit: 'Hz', cells: 4, value: (s, r) => fixed(49.8 + ((r + s * 0.013) % 0.4), 2) },
  { label: 'PRICE', unit: 'EUR', cells: 5, value: (s, r) => fixed(r * 80 + s * 1.07, 2) },
];

/** One display as drawn: where it is, its look and size, and what it shows. */
export interface SegmentDisplay {
  style: SegmentStyle;
  /** Height of a digit in pixels. */
  digitHeight: number;
  label: string;
  unit: string;
  /** The digits' rectangle on the frame. */
  box: { left: number; top: number; width: number; height: number };
  kind: DisplayKind;
  seed: number;
}

export interface SegmentScene {
  width: number;
  height: number;
  background: string;
  displays: SegmentDisplay[];
}

/** Digit width, stroke, gap between segments and pitch between digits, for digits `h` high. */
function metrics(h: number) {
  const w = 0.55 * h;
  const t = Math.max(3, 0.13 * h);
  return { w, t, gap: Math.max(1.5, 0.04 * h), pitch: w + 0.3 * h };
}

/**
 * A scene of seven-segment displays: one per cell of a 2x3 grid (five or six of them), each with its own style
 * and digit height (30-110 px at 720p), a label above it and its unit to its right. Every style appears when
 * there are at least five displays. The same seed gives the same scene.
 */
export function sevenSegmentScene(seed: number, width = 1280, height = 720): SegmentScene {
  const rnd = seededRandom(seed);
  const scale = height / 720;
  const count = 5 + Math.floor(rnd() * 2);
  const styles = [...SEGMENT_STYLES].sort(() => rnd() - 0.5);
  const kinds = [...KINDS].sort(() => rnd() - 0.5);
  const displays: SegmentDisplay[] = [];
  const cellW = width / 2;
  const cellH = height / 3;
  for (let i = 0; i < count; i++) {
    const kind = kinds[i % kinds.length]!;
    const room = cellW - 150 * scale;
    const maxH = Math.min(110 * scale, cellH - 80 * scale, room / (kind.cells * 0.85));
    const digitHeight = Math.round(30 * scale + rnd() * (maxH - 30 * scale));
    const m = metrics(digitHeight);
    const w = Math.round(kind.cells * m.pitch - 0.3 * digitHeight);
    const col = i % 2;
    const row = Math.floor(i / 2);
    const left = Math.round(col * cellW + 30 * scale + rnd() * Math.max(0, room - w - 20 * scale));
    const top = Math.round(row * cellH + 48 * scale + rnd() * Math.max(0, cellH - 70 * scale - digitHeight - 48 * scale));
    displays.push({ style: styles[i % styles.length]!, digitHeight, label: kind.label, unit: kind.unit, box: { left, top, width: w, height: digitHeight }, kind, seed: rnd() });
  }
  const shade = Math.round(24 + rnd() * 40).toString(16).padStart(2, '0');
  return { width, height, background: `#${shade}${shade}${shade}`, displays };
}

/** What display `d` shows in second `s`. */
export function displayValue(d: SegmentDisplay, s: number): string {
  return d.kind.value(s, d.seed);
}

/** The value's characters in cells, right-aligned: each cell's glyph and whether its decimal point is lit. */
function cellsOf(value: string, count: number): { glyph: string; dot: boolean }[] {
  const cells: { glyph: string; dot: boolean }[] = [];
  for (const ch of value) {
    if (ch === '.') cells[cells.length - 1]!.dot = true;
    else if (ch !== ':') cells.push({ glyph: ch, dot: false });
  }
  while (cells.length < count) cells.unshift({ glyph: ' ', dot: false });
  return cells.slice(-count);
}

const pts = (p: [number, number][]) => p.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ');

/** The hexagon of segment `s` of a digit whose top-left is (x, y). */
function segmentPolygon(s: string, x: number, y: number, h: number): string {
  const { w, t, gap } = metrics(h);
  const horizontal = (yc: number) => {
    const x0 = x + t / 2 + gap;
    const x1 = x + w - t / 2 - gap;
    return pts([[x0, yc], [x0 + t / 2, yc - t / 2], [x1 - t / 2, yc - t / 2], [x1, yc], [x1 - t / 2, yc + t / 2], [x0 + t / 2, yc + t / 2]]);
  };
  const vertical = (xc: number, upper: boolean) => {
    const y0 = upper ? y + t / 2 + gap : y + h / 2 + gap;
    const y1 = upper ? y + h / 2 - gap : y + h - t / 2 - gap;
    return pts([[xc, y0], [xc + t / 2, y0 + t / 2], [xc + t / 2, y1 - t / 2], [xc, y1], [xc - t / 2, y1 - t / 2], [xc - t / 2, y0 + t / 2]]);
  };
  switch (s) {
    case 'a': return horizontal(y + t / 2);
    case 'g': return horizontal(y + h / 2);
    case 'd': return horizontal(y + h - t / 2);
    case 'b': return vertical(x + w - t / 2, true);
    case 'c': return vertical(x + w - t / 2, false);
    case 'e': return vertical(x + t / 2, false);
    default: return vertical(x + t / 2, true);
  }
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/** The SVG of the scene in second `s`. */
export function sevenSegmentSvg(scene: SegmentScene, s: number): string {
  const scale = scene.height / 720;
  const parts: string[] = [`<svg xmlns="http://www.w3.org/2000/svg" width="${scene.width}" height="${scene.height}">`];
  parts.push('<defs><filter id="glow" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur in="SourceGraphic" stdDeviation="2.2" result="b"/><feMerge><feMergeNode in="b"/><feMergeNode in="SourceGraphic"/></feMerge></filter>');
  parts.push('<filter id="soft"><feGaussianBlur stdDeviation="0.7"/></filter></defs>');
  parts.push(`<rect width="100%" height="100%" fill="${scene.background}"/>`);
  for (const d of scene.displays) {
    const paint = PAINT[d.style];
    const h = d.digitHeight;
    const m = metrics(h);
    const pad = Math.round(0.3 * h);
    const { left, top, width } = d.box;
    parts.push(`<rect x="${left - pad}" y="${top - pad}" width="${width + 2 * pad}" height="${h + 2 * pad}" rx="${Math.round(pad / 3)}" fill="${paint.glass}"/>`);
    const labelSize = Math.round(22 * scale);
    parts.push(`<text x="${left - pad}" y="${top - pad - Math.round(8 * scale)}" font-family="DejaVu Sans" font-weight="bold" font-size="${labelSize}" fill="#d8d8d8">${escapeXml(d.label)}</text>`);
    if (d.unit) parts.push(`<text x="${left + width + pad + Math.round(12 * scale)}" y="${top + h}" font-family="DejaVu Sans" font-size="${Math.round(Math.max(24 * scale, h * 0.45))}" fill="#d8d8d8">${escapeXml(d.unit)}</text>`);
    const lit: string[] = [];
    const ghost: string[] = [];
    cellsOf(displayValue(d, s), d.kind.cells).forEach((cell, i) => {
      const x = left + i * m.pitch;
      for (const seg of 'abcdefg') (GLYPHS[cell.glyph]!.includes(seg) ? lit : ghost).push(`<polygon points="${segmentPolygon(seg, x, top, h)}"/>`);
      const dot = `<circle cx="${(x + m.w + 0.15 * h).toFixed(1)}" cy="${(top + h - m.t / 2).toFixed(1)}" r="${(m.t * 0.55).toFixed(1)}"/>`;
      (cell.dot ? lit : ghost).push(dot);
      if (d.kind.colonAfter === i) {
        const cx = (x + m.w + 0.15 * h).toFixed(1);
        for (const cy of [top + 0.3 * h, top + 0.7 * h]) lit.push(`<circle cx="${cx}" cy="${cy.toFixed(1)}" r="${(m.t * 0.55).toFixed(1)}"/>`);
      }
    });
    parts.push(`<g fill="${paint.ghost}">${ghost.join('')}</g>`);
    parts.push(`<g fill="${paint.lit}" filter="url(#${paint.glow ? 'glow' : 'soft'})">${lit.join('')}</g>`);
  }
  parts.push('</svg>');
  return parts.join('');
}

/** One generated frame of seven-segment displays and what each display shows on it. */
export interface SegmentFrame {
  path: string;
  /** The displays' values, in the scene's order (e.g. `12.05`, `0.350`, `14:37`, `-3.2`). */
  values: string[];
  /** The ordinary text on the frame (labels and units). */
  labels: string[];
  displays: SegmentDisplay[];
}

export interface SegmentFrameOptions {
  dir: string;
  /** The scene's seed: a different seed gives another layout, colours, sizes and values (held-out variety). */
  seed: number;
  count: number;
  width?: number;
  height?: number;
  /** JPEG quality of the frames (as extracted frames are stored). */
  quality?: number;
}

const labelsOf = (scene: SegmentScene) => scene.displays.flatMap((d) => [d.label, d.unit]).filter(Boolean);

/** `count` JPEG frames of one scene, a second apart, with the values each shows. */
export async function makeSevenSegmentFrames(o: SegmentFrameOptions): Promise<SegmentFrame[]> {
  const scene = sevenSegmentScene(o.seed, o.width, o.height);
  const frames: SegmentFrame[] = [];
  for (let s = 0; s < o.count; s++) {
    const path = join(o.dir, `seg-${o.seed}-${String(s).padStart(3, '0')}.jpg`);
    await writeFile(path, await sharp(Buffer.from(sevenSegmentSvg(scene, s))).jpeg({ quality: o.quality ?? 85 }).toBuffer());
    frames.push({ path, values: scene.displays.map((d) => displayValue(d, s)), labels: labelsOf(scene), displays: scene.displays });
  }
  return frames;
}

/** A video of one scene whose values change every second (bench power supplies, scales, clocks, pumps side by side). */
export async function makeSevenSegmentVideo(o: { dir: string; seed: number; seconds?: number; width?: number; height?: number; fps?: number; name?: string }): Promise<GeneratedVideo & { scene: SegmentScene }> {
  const seconds = o.seconds ?? 20;
  const fps = o.fps ?? 25;
  const scene = sevenSegmentScene(o.seed, o.width, o.height);
  const truth: TimedText[] = [];
  for (let s = 0; s < seconds; s++) {
    await writeFile(join(o.dir, `seg-video-${o.seed}-${String(s).padStart(3, '0')}.png`), await sharp(Buffer.from(sevenSegmentSvg(scene, s))).png({ compressionLevel: 1 }).toBuffer());
    truth.push({ startS: s, endS: s + 1, texts: scene.displays.map((d) => displayValue(d, s)) });
  }
  const path = join(o.dir, o.name ?? `seven-segment-${o.seed}.mp4`);
  await ffmpeg(['-framerate', '1', '-i', join(o.dir, `seg-video-${o.seed}-%03d.png`), '-vf', `fps=${fps}`, ...h264Args(path, seconds)]);
  return { path, durationSeconds: seconds, width: scene.width, height: scene.height, fps, truth, scene };
}
