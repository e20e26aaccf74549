import { rectVertices, type TextBlock } from './geometry.js';
import { seededRandom } from './seeded-random.js';

/*
 * A made-up dashboard as OCR would read it, frame after frame, with the truth of which field each block shows:
 * for the tracking benchmark (bench/tracking.bench.mjs) and the tracking tests. Fields sit in a grid and show a
 * label, a number that changes every frame and a unit; their boxes jitter by a few pixels, now and then a field is
 * not read at all or is misread by a character, and short-lived texts pop up at random places. Deterministic: the
 * same options give the same frames.
 */

export interface DashboardOptions {
  frames?: number;
  /** Fields that stay on screen the whole time. */
  fields?: number;
  /** Short-lived texts per frame (each stays 1 to 4 frames). */
  transients?: number;
  width?: number;
  height?: number;
  seed?: number;
  /** Chance that a field is not read on a frame. */
  dropout?: number;
  /** Chance that a field's reading has one character wrong. */
  misread?: number;
}

export interface SyntheticDashboard {
  frames: TextBlock[][];
  /** field[f][i]: the field block i of frame f shows, or null for a short-lived text. */
  field: (number | null)[][];
  fieldCount: number;
}

const LABELS = ['Pump', 'Fan', 'Cell', 'Tank', 'Line', 'Zone'];
const UNITS = ['kW', 'V', '%', 'bar', 'rpm', 'C'];
const WORDS = ['ALERT', 'Door open', 'Service due', 'Filter', 'Check valve', 'Reset', 'OK', 'Standby'];
const LOOKALIKE: Record<string, string> = { o: '0', O: '0', l: '1', i: '1', S: '5', B: '8', e: 'c', '0': 'O', '1': 'l', '5': 'S' };
const CHAR_WIDTH = 11;
const LINE_HEIGHT = 24;

function box(x: number, y: number, text: string): TextBlock {
  const w = text.length * CHAR_WIDTH;
  const h = LINE_HEIGHT;
  return {
    text,
    vertices: rectVertices({ x, y, w, h }),
    area: w * h,
    confidence: 90,
  };
}

function misread(text: string, random: () => number): string {
  const spots = [...text].map((c, i) => (LOOKALIKE[c] ? i : -1)).filter((i) => i >= 0);
  if (spots.length === 0) return text;
  const at = spots[Math.floor(random() * spots.length)]!;
  return text.slice(0, at) + LOOKALIKE[text[at]!]! + text.slice(at + 1);
}

export function syntheticDashboard(options: DashboardOptions = {}): SyntheticDashboard {
  const frameCount = options.frames ?? 360;
  const fieldCount = options.fields ?? 90;
  const transientsPerFrame = options.transients ?? 10;
  const width = options.width ?? 1920;
  const height = options.height ?? 1080;
  const dropout = options.dropout ?? 0.03;
  const misreadChance = options.misread ?? 0.04;
  const random = seededRandom(options.seed ?? 7);

  const columns = Math.ceil(Math.sqrt(fieldCount * (width / height)));
  const rows = Math.ceil(fieldCount / columns);
  const cellW = width / columns;
  const cellH = height / rows;
  const fields = Array.from({ length: fieldCount }, (_, k) => ({
    x: (k % columns) * cellW + 8,
    y: Math.floor(k / columns) * cellH + cellH / 2 - LINE_HEIGHT / 2,
    label: `${LABELS[k % LABELS.length]} ${1 + Math.floor(k / LABELS.length)}`,
    unit: UNITS[(k * 7) % UNITS.length]!,
    value: 10 + random() * 90,
  }));

  let popups: { x: number; y: number; text: string; left: number }[] = [];
  const frames: TextBlock[][] = [];
  const truth: (number | null)[][] = [];
  for (let f = 0; f < frameCount; f++) {
    const shown: { block: TextBlock; field: number | null }[] = [];
    fields.forEach((field, k) => {
      field.value = Math.max(0, field.value + (random() - 0.5) * 4);
      if (random() < dropout) return;
      let text = `${field.label} ${field.value.toFixed(1)} ${field.unit}`;
      if (random() < misreadChance) text = misread(text, random);
      const jitter = () => Math.round((random() - 0.5) * 4);
      shown.push({ block: box(field.x + jitter(), field.y + jitter(), text), field: k });
    });
    popups = popups.filter((p) => --p.left > 0);
    while (popups.length < transientsPerFrame) {
      const text = WORDS[Math.floor(random() * WORDS.length)]!;
      popups.push({ x: random() * (width - 150), y: random() * (height - LINE_HEIGHT), text, left: 1 + Math.floor(random() * 4) });
    }
    for (const p of popups) shown.push({ block: box(p.x, p.y, p.text), field: null });
    // OCR lists blocks in reading order: top to bottom, then left to right.
    shown.sort((a, b) => a.block.vertices[0]!.y - b.block.vertices[0]!.y || a.block.vertices[0]!.x - b.block.vertices[0]!.x);
    frames.push(shown.map((s) => s.block));
    truth.push(shown.map((s) => s.field));
  }
  return { frames, field: truth, fieldCount };
}
