import { join } from 'node:path';
import { drawtext, ffmpeg, h264Args, type DrawText } from './ffmpeg.js';

export interface VideoOptions {
  dir: string;
  /** File name inside dir (default per generator). */
  name?: string;
  seconds?: number;
  width?: number;
  height?: number;
  fps?: number;
}

export interface TimedText {
  startS: number;
  endS: number;
  texts: string[];
}

export interface GeneratedVideo {
  path: string;
  durationSeconds: number;
  width: number;
  height: number;
  fps: number;
  /** What is on screen, and when. */
  truth: TimedText[];
}

function dims(o: VideoOptions, seconds: number) {
  return { seconds: o.seconds ?? seconds, width: o.width ?? 1280, height: o.height ?? 720, fps: o.fps ?? 25 };
}

/** Scales a size given for 720p to the video's height. */
const px = (height: number, at720: number) => Math.round((at720 * height) / 720);

/** The values a charger screen shows in second `s` of the video. */
export function chargerValues(s: number): { battery: string; power: string; elapsed: string } {
  const mm = String(Math.floor(s / 60)).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return { battery: `${20 + s}%`, power: `${150 - s} kW`, elapsed: `${mm}:${ss}` };
}

/**
 * An EV charger's screen: battery percentage, power and elapsed time, changing every second over a plain dark
 * background (the charging-curve use case).
 */
export async function makeChargerVideo(o: VideoOptions): Promise<GeneratedVideo> {
  const { seconds, width, height, fps } = dims(o, 60);
  const path = join(o.dir, o.name ?? 'charger.mp4');
  const h = (v: number) => px(height, v);
  const texts: DrawText[] = [
    { text: 'DC FAST CHARGER', x: h(80), y: h(60), size: h(44), color: '0x9fd3ff', bold: true },
    { text: 'Battery', x: h(80), y: h(200), size: h(40), color: '0xbbbbbb' },
    { text: '%{eif\\:20+trunc(t)\\:d}\\\\%', x: h(420), y: h(180), size: h(88), bold: true, expand: true },
    { text: 'Power', x: h(80), y: h(360), size: h(40), color: '0xbbbbbb' },
    { text: '%{eif\\:150-trunc(t)\\:d} kW', x: h(420), y: h(340), size: h(88), bold: true, expand: true },
    { text: 'Elapsed', x: h(80), y: h(520), size: h(40), color: '0xbbbbbb' },
    { text: '%{eif\\:trunc(t/60)\\:d\\:2}\\:%{eif\\:mod(trunc(t)\\,60)\\:d\\:2}', x: h(420), y: h(500), size: h(88), bold: true, expand: true },
  ];
  await ffmpeg(['-f', 'lavfi', '-i', `color=c=0x101820:s=${width}x${height}:r=${fps}`, '-vf', texts.map(drawtext).join(','), ...h264Args(path, seconds)]);
  const truth: TimedText[] = [];
  for (let s = 0; s < seconds; s++) {
    const v = chargerValues(s);
    truth.push({ startS: s, endS: s + 1, texts: [v.battery, v.power, v.elapsed] });
  }
  return { path, durationSeconds: seconds, width, height, fps, truth };
}

/** The readings a lab instrument's screen shows in second `s` of the video. */
export function instrumentValues(s: number): { temperature: string; ph: string; stirrer: string; time: string } {
  const hh = String(Math.floor(s / 3600)).padStart(2, '0');
  const mm = String(Math.floor(s / 60) % 60).padStart(2, '0');
  const ss = String(s % 60).padStart(2, '0');
  return { temperature: `${(36.5 + 0.1 * s).toFixed(1)} C`, ph: (7.2 + 0.01 * s).toFixed(2), stirrer: `${400 + 5 * s} rpm`, time: `${hh}:${mm}:${ss}` };
}

/**
 * A lab instrument's screen: a white title bar, grey labels and white and yellow readings on a blue panel, one
 * reading changing every second (the hand-held phone case of the benchmark films it).
 */
export async function makeInstrumentVideo(o: VideoOptions): Promise<GeneratedVideo> {
  const { seconds, width, height, fps } = dims(o, 60);
  const path = join(o.dir, o.name ?? 'instrument.mp4');
  const h = (v: number) => px(height, v);
  const filters = [
    `drawbox=x=0:y=0:w=iw:h=${h(110)}:color=0xe8edf2:t=fill`,
    drawtext({ text: 'BIOREACTOR CONTROL UNIT', x: h(60), y: h(36), size: h(44), color: '0x1a2a40', bold: true }),
  ];
  const rows: [label: string, colour: string][] = [
    ['Temperature', 'white'],
    ['pH', 'yellow'],
    ['Stirrer', 'white'],
    ['Run time', 'white'],
  ];
  const truth: TimedText[] = [];
  for (let s = 0; s < seconds; s++) {
    const v = instrumentValues(s);
    [v.temperature, v.ph, v.stirrer, v.time].forEach((text, row) => {
      filters.push(drawtext({ text, x: h(560), y: h(160 + row * 130), size: h(76), color: rows[row]![1], bold: true, from: s, to: s + 1 }));
    });
    truth.push({ startS: s, endS: s + 1, texts: [v.temperature, v.ph, v.stirrer, v.time] });
  }
  rows.forEach(([label], row) => filters.push(drawtext({ text: label, x: h(60), y: h(180 + row * 130), size: h(44), color: '0xb8c8dc' })));
  await ffmpeg(['-f', 'lavfi', '-i', `color=c=0x1f4e8c:s=${width}x${height}:r=${fps}`, '-vf', filters.join(','), ...h264Args(path, seconds)]);
  return { path, durationSeconds: seconds, width, height, fps, truth };
}

/** A dashboard's readings in second `s`: the five series of makeDashboardVideo, by their names. */
export function dashboardValues(s: number): Record<DashboardSeries, string> {
  const elapsed = 11 * 60 + 12 + s;
  return {
    'Battery (%)': `${45 + s}%`,
    'Power (kW)': `${150 - 2 * s} kW`,
    'Voltage (V)': String(230 + (s % 4)),
    'Speed (km/h)': `${60 + 3 * s} km/h`,
    Elapsed: `${Math.floor(elapsed / 60)}:${String(elapsed % 60).padStart(2, '0')}`,
  };
}

/** The series a dashboard video shows, each named after its label and unit as a person would name the column. */
export const DASHBOARD_SERIES = ['Battery (%)', 'Power (kW)', 'Voltage (V)', 'Speed (km/h)', 'Elapsed'] as const;
export type DashboardSeries = (typeof DASHBOARD_SERIES)[number];

/**
 * A monitoring dashboard laid out the ways screens label their numbers: on the left, labels to the left of their
 * readings (Battery 45%, Power 150 kW, and Voltage 230 with its unit V drawn apart); on the right, labels above
 * them (Speed over 60 km/h, Elapsed over 11:12). A title and a year stay the same throughout: text, not series.
 * Every reading changes every second.
 */
export async function makeDashboardVideo(o: VideoOptions): Promise<GeneratedVideo> {
  const { seconds, width, height, fps } = dims(o, 12);
  const path = join(o.dir, o.name ?? 'dashboard.mp4');
  const h = (v: number) => px(height, v);
  const label = (text: string, x: number, y: number) => drawtext({ text, x: h(x), y: h(y), size: h(40), color: '0xbbbbbb' });
  const filters = [
    drawtext({ text: 'PLANT MONITOR', x: h(80), y: h(40), size: h(44), color: '0x9fd3ff', bold: true }),
    drawtext({ text: '2024', x: h(1100), y: h(40), size: h(40), color: '0x9fd3ff' }),
    label('Battery', 80, 170),
    label('Power', 80, 310),
    label('Voltage', 80, 450),
    drawtext({ text: 'V', x: h(660), y: h(450), size: h(40) }),
    label('Speed', 80, 560),
    label('Elapsed', 640, 560),
  ];
  const places: Record<DashboardSeries, { x: number; y: number; size: number }> = {
    'Battery (%)': { x: 400, y: 150, size: 80 },
    'Power (kW)': { x: 400, y: 290, size: 80 },
    'Voltage (V)': { x: 400, y: 430, size: 80 },
    'Speed (km/h)': { x: 80, y: 610, size: 64 },
    Elapsed: { x: 640, y: 610, size: 64 },
  };
  const truth: TimedText[] = [];
  for (let s = 0; s < seconds; s++) {
    const v = dashboardValues(s);
    for (const name of DASHBOARD_SERIES) {
      const at = places[name];
      filters.push(drawtext({ text: v[name], x: h(at.x), y: h(at.y), size: h(at.size), bold: true, from: s, to: s + 1 }));
    }
    truth.push({ startS: s, endS: s + 1, texts: DASHBOARD_SERIES.map((name) => v[name]) });
  }
  await ffmpeg(['-f', 'lavfi', '-i', `color=c=0x101820:s=${width}x${height}:r=${fps}`, '-vf', filters.join(','), ...h264Args(path, seconds)]);
  return { path, durationSeconds: seconds, width, height, fps, truth };
}

/** Slides: dark text on a light background, each shown for `secondsPerSlide`. */
export async function makeSlidesVideo(o: VideoOptions & { slides: string[][]; secondsPerSlide?: number }): Promise<GeneratedVideo> {
  const per = o.secondsPerSlide ?? 6;
  const { width, height, fps } = dims(o, 0);
  const seconds = per * o.slides.length;
  const path = join(o.dir, o.name ?? 'slides.mp4');
  const h = (v: number) => px(height, v);
  const filters: string[] = [];
  const truth: TimedText[] = [];
  o.slides.forEach((lines, i) => {
    const from = i * per;
    const to = from + per;
    lines.forEach((line, j) => {
      filters.push(drawtext({ text: line, x: h(90), y: h(j === 0 ? 80 : 160 + j * 90), size: h(j === 0 ? 64 : 44), color: '0x1d2330', bold: j === 0, from, to }));
    });
    truth.push({ startS: from, endS: to, texts: lines });
  });
  await ffmpeg(['-f', 'lavfi', '-i', `color=c=0xf4f1ea:s=${width}x${height}:r=${fps}`, '-vf', filters.join(','), ...h264Args(path, seconds)]);
  return { path, durationSeconds: seconds, width, height, fps, truth };
}

/**
 * A busy, moving picture to put captions and numbers over: `testsrc` (ffmpeg's testsrc2: colour bars, gradients, a
 * moving ball, and a running clock and frame counter drawn as text), or `life`, a colony of cells in colour that grows
 * and dies (Conway's game of life), with no text of its own.
 */
function busyBackground(width: number, height: number, fps: number, picture: 'testsrc' | 'life' = 'testsrc'): string[] {
  if (picture === 'life') {
    const cells = `life=s=${Math.round(width / 4)}x${Math.round(height / 4)}:r=${fps}:mold=10:ratio=0.3:random_seed=3:life_color=#5080ff:death_color=#203020:mold_color=#806040`;
    return ['-f', 'lavfi', '-i', `${cells},scale=${width}:${height}:flags=bilinear`];
  }
  return ['-f', 'lavfi', '-i', `testsrc2=s=${width}x${height}:r=${fps}`];
}

/**
 * White captions, without a box, over a busy moving picture: the hard case for bare Tesseract. A caption's text may
 * hold a line break: each line is centred, and the last line sits at the same place whatever the number of lines:
 * its top at `lastLineTop` of the height (default 600/720, above a player's controls; 0.92 puts the descenders
 * where a player's own subtitles reach, about 2.5% above the bottom). `font`: a font file for every caption
 * (FONT_CJK for Chinese), in place of DejaVu Sans Bold. `picture`: what they are over (busyBackground), without clutter.
 */
export async function makeCaptionsVideo(
  o: VideoOptions & { captions: readonly { text: string; startS: number; endS: number }[]; outline?: number; size?: number; clutter?: boolean; lastLineTop?: number; font?: string; picture?: 'testsrc' | 'life' },
): Promise<GeneratedVideo> {
  const last = Math.max(...o.captions.map((c) => c.endS));
  const { seconds, width, height, fps } = dims(o, Math.ceil(last));
  const path = join(o.dir, o.name ?? 'captions.mp4');
  const h = (v: number) => px(height, v);
  const size = h(o.size ?? 52);
  const lineStep = Math.round(size * 1.25);
  const lastTop = o.lastLineTop === undefined ? h(600) : Math.round(o.lastLineTop * height);
  const filters = o.captions.flatMap((c) => {
    const lines = c.text.split('\n');
    return lines.map((line, i) =>
      drawtext({ text: line, x: '(w-text_w)/2', y: lastTop - (lines.length - 1 - i) * lineStep, size, bold: true, font: o.font, border: o.outline ?? 0, from: c.startS, to: c.endS }),
    );
  });
  const truth = o.captions.map((c) => ({ startS: c.startS, endS: c.endS, texts: c.text.split('\n') }));
  if (!o.clutter) {
    await ffmpeg([...busyBackground(width, height, fps, o.picture), '-vf', filters.join(','), ...h264Args(path, seconds)]);
    return { path, durationSeconds: seconds, width, height, fps, truth };
  }
  // Clutter: white specks that live and die (Conway's game of life, in 5 px cells) in a band around the captions,
  // and a sign that sweeps across the band in a fraction of a second every few seconds. Neither is in the truth.
  const band = { y: h(520), h: h(200) };
  const life = `life=s=${Math.round(width / 5)}x${Math.round(band.h / 5)}:r=${fps}:ratio=0.12:random_seed=7:life_color=white:death_color=black`;
  const sign = drawtext({ text: 'EXIT 24', x: `mod(t*${h(1800)}\\,${h(6000)})-${h(300)}`, y: h(545), size: h(28) });
  // The specks keep clear of the middle of the caption lines: they touch only the ends of long lines, and lie under them.
  const clear = `drawbox=x=${h(400)}:y=0:w=${width - 2 * h(400)}:h=${h(145)}:color=black:t=fill`;
  const graph = `[1]scale=${width}:${band.h}:flags=neighbor,${clear},colorkey=black:0.2[specks];[0][specks]overlay=0:${band.y},${[sign, ...filters].join(',')}`;
  await ffmpeg([...busyBackground(width, height, fps), '-f', 'lavfi', '-i', life, '-filter_complex', graph, ...h264Args(path, seconds)]);
  return { path, durationSeconds: seconds, width, height, fps, truth };
}

/**
 * Fourteen captions of one and two lines, each on screen for 1.5 to 5 s, with gaps between some and others back
 * to back: the captions corpus (makeCaptionsVideo with size 40, outline 2 and clutter). Times in seconds.
 */
export const CAPTIONS_CORPUS: readonly { text: string; startS: number; endS: number }[] = [
  { text: 'Good evening and welcome', startS: 0.5, endS: 3 },
  { text: 'Tonight we travel north\nto the edge of the ice', startS: 3, endS: 7 },
  { text: 'Where winter never ends', startS: 7.8, endS: 10 },
  { text: 'Stop!', startS: 10.7, endS: 12.2 },
  { text: 'The wind is too strong today', startS: 12.2, endS: 15.5 },
  { text: 'We will wait for the morning\nand try the pass again', startS: 16.5, endS: 21.5 },
  { text: 'Is anyone there?', startS: 21.5, endS: 23.5 },
  { text: 'Only the dogs', startS: 24.3, endS: 26 },
  { text: 'They know the way home\nbetter than we do', startS: 26, endS: 30 },
  { text: 'Keep moving', startS: 31, endS: 32.5 },
  { text: 'The camp lights are close now', startS: 32.5, endS: 36 },
  { text: 'Ten more minutes', startS: 37, endS: 39.5 },
  { text: 'Warm soup is waiting\nfor everyone inside', startS: 39.5, endS: 44 },
  { text: 'Thank you for watching', startS: 45, endS: 48 },
];

/**
 * Captions as a player shows them, for makeCaptionsVideo with size 40, outline 2 and lastLineTop 0.92: low in the
 * frame, most with descenders (g, p, y) and commas, half of them wider than two thirds of the frame.
 */
export const LOW_CAPTIONS: readonly { text: string; startS: number; endS: number }[] = [
  { text: 'Keep going, says Peggy', startS: 0.5, endS: 3 },
  { text: 'Everybody pays, apparently, by tonight, yes', startS: 3, endS: 6 },
  { text: 'Gypsy jazz is playing quietly in the gallery', startS: 6.5, endS: 9 },
  { text: 'Happy, sleepy puppy', startS: 9, endS: 11 },
  { text: 'The pygmy goats graze by the ponds, grumpy', startS: 11.5, endS: 14.5 },
  { text: 'Sorry, my apologies', startS: 14.5, endS: 16.5 },
  { text: 'Spying eyes everywhere, giggling joyfully', startS: 17, endS: 20 },
  { text: 'Goodbye, everyone', startS: 20, endS: 22 },
];

/**
 * Simplified Chinese captions, written for FrameText's tests and bench (makeCaptionsVideo with FONT_CJK, size 40,
 * outline 2): two people on a walk home at night, in one and two lines of common characters, some with Chinese
 * punctuation, one with a digit, one with Latin letters, as films' subtitles have them. Times in seconds.
 */
export const CHINESE_CAPTIONS: readonly { text: string; startS: number; endS: number }[] = [
  { text: '今天晚上我们走路回家', startS: 0.5, endS: 3 },
  { text: '路上的灯都已经亮了', startS: 3, endS: 5.5 },
  { text: '你还记得那家小书店吗？', startS: 6.2, endS: 8.5 },
  { text: '记得，老板每天都在看报纸\n门口还有一只黑猫', startS: 8.5, endS: 12 },
  { text: '它现在应该有十二岁了', startS: 12.8, endS: 15 },
  { text: '等一下', startS: 15, endS: 16.5 },
  { text: '前面的桥正在修', startS: 17.2, endS: 19.5 },
  { text: '我们从河边的小路过去吧\n那里比较安静', startS: 19.5, endS: 23.5 },
  { text: '明天早上8点在车站见', startS: 24.2, endS: 26.5 },
  { text: '别忘了带上你的相机和GPS', startS: 26.5, endS: 29 },
  { text: '好的，晚安', startS: 29.8, endS: 32 },
];

/** The values a launch telemetry overlay shows in second `s`. */
export function telemetryValues(s: number): { speed: string; altitude: string } {
  return { speed: `${1000 + 137 * s} KM/H`, altitude: `${(2 + 1.7 * s).toFixed(1)} KM` };
}

/** Launch telemetry: white numbers that change each second over a busy moving picture. */
export async function makeTelemetryVideo(o: VideoOptions & { outline?: number }): Promise<GeneratedVideo> {
  const { seconds, width, height, fps } = dims(o, 20);
  const path = join(o.dir, o.name ?? 'telemetry.mp4');
  const h = (v: number) => px(height, v);
  const filters: string[] = [
    drawtext({ text: 'SPEED', x: h(60), y: h(560), size: h(30), bold: true, border: o.outline ?? 0 }),
    drawtext({ text: 'ALTITUDE', x: h(760), y: h(560), size: h(30), bold: true, border: o.outline ?? 0 }),
  ];
  const truth: TimedText[] = [];
  for (let s = 0; s < seconds; s++) {
    const v = telemetryValues(s);
    filters.push(drawtext({ text: v.speed, x: h(60), y: h(610), size: h(60), bold: true, border: o.outline ?? 0, from: s, to: s + 1 }));
    filters.push(drawtext({ text: v.altitude, x: h(760), y: h(610), size: h(60), bold: true, border: o.outline ?? 0, from: s, to: s + 1 }));
    truth.push({ startS: s, endS: s + 1, texts: [v.speed, v.altitude] });
  }
  await ffmpeg([...busyBackground(width, height, fps), '-vf', filters.join(','), ...h264Args(path, seconds)]);
  return { path, durationSeconds: seconds, width, height, fps, truth };
}

/** The texts on screen at time `t` seconds. */
export function textsAt(video: GeneratedVideo, t: number): string[] {
  return video.truth.filter((x) => t >= x.startS && t < x.endS).flatMap((x) => x.texts);
}

/** One item of the generated scrolling list. */
export interface ScrollListItem {
  /** 1-based position in the list. */
  number: number;
  /** e.g. "Item 07 Blue Kettle". */
  title: string;
  /** e.g. "$ 24.99". */
  price: string;
}

export interface ScrollListVideo extends GeneratedVideo {
  items: ScrollListItem[];
  /** Distance between neighbouring items' tops, in pixels. */
  pitch: number;
  /** How far the list moves up each second, in pixels. */
  speed: number;
  /** Offsets below an item's top of its title's and its price's text (drawtext y), in pixels. */
  titleOffset: number;
  priceOffset: number;
  /** Left edge of the titles and right edge of the prices, in pixels. */
  left: number;
  right: number;
  /** Where the top of item `index` (0-based) is at `t` seconds (negative: above the frame). */
  itemTop: (index: number, t: number) => number;
}

const PRODUCTS = [
  'Blue Kettle', 'Red Lamp', 'Oak Chair', 'Wool Scarf', 'Glass Vase', 'Copper Pot', 'Linen Towel', 'Steel Pan',
  'Paper Lantern', 'Garden Hose', 'Desk Clock', 'Travel Mug', 'Rain Jacket', 'Canvas Bag', 'Brass Bell', 'Olive Bowl',
  'Silk Tie', 'Cotton Shirt', 'Maple Shelf', 'Leather Belt',
];

/** The items of a list of `count`: distinct names, and prices from a fixed sequence. */
export function scrollListItems(count: number): ScrollListItem[] {
  return Array.from({ length: count }, (_, i) => {
    const number = i + 1;
    const name = PRODUCTS[i % PRODUCTS.length]!;
    const cents = 499 + ((i * 1379) % 9000);
    return { number, title: `Item ${String(number).padStart(2, '0')} ${name}`, price: `$ ${(cents / 100).toFixed(2)}` };
  });
}

/**
 * A shopping list scrolling up at a steady speed over a light background: each item has a bold title at the left
 * ("Item 07 Blue Kettle") and its bold price on a second line at the right ("$ 24.99"). At the start the first items fill
 * the screen; by the end the last item has come fully into view. The truth lists, per item, the time during which
 * both of its lines are wholly on screen.
 */
export async function makeScrollListVideo(o: VideoOptions & { items?: number }): Promise<ScrollListVideo> {
  const { seconds, width, height, fps } = dims(o, 15);
  const path = join(o.dir, o.name ?? 'scroll-list.mp4');
  const h = (v: number) => px(height, v);
  const items = scrollListItems(o.items ?? 12);
  const pitch = h(150);
  const margin = h(30);
  const titleOffset = h(22);
  const priceOffset = h(84);
  const textSize = h(44);
  const left = h(90);
  const right = width - h(90);
  // From the first item at the top margin to the last one resting the same margin above the bottom edge.
  const travel = Math.max(0, items.length * pitch + 2 * margin - height);
  const speed = Math.round((travel / seconds) * 100) / 100;
  const itemTop = (index: number, t: number) => margin + index * pitch - speed * t;

  const filters = items.flatMap((item, i) => {
    const top = margin + i * pitch;
    return [
      drawtext({ text: item.title, x: left, y: `${top + titleOffset}-${speed}*t`, size: textSize, color: '0x1d2330', bold: true }),
      drawtext({ text: item.price, x: `${right}-text_w`, y: `${top + priceOffset}-${speed}*t`, size: textSize, color: '0x1e4d27', bold: true }),
    ];
  });
  await ffmpeg(['-f', 'lavfi', '-i', `color=c=0xfafaf7:s=${width}x${height}:r=${fps}`, '-vf', filters.join(','), ...h264Args(path, seconds)]);

  // Both lines are whole on screen while the title's top is at or below 0 and the price's bottom (with room for
  // descenders) at or above the bottom edge.
  const textBottom = priceOffset + Math.round(textSize * 1.2);
  const truth: TimedText[] = [];
  items.forEach((item, i) => {
    const top0 = margin + i * pitch;
    const startS = speed > 0 ? Math.max(0, (top0 + textBottom - height) / speed) : 0;
    const endS = speed > 0 ? Math.min(seconds, (top0 + titleOffset) / speed) : seconds;
    if (top0 + textBottom - speed * startS <= height && endS > startS) truth.push({ startS, endS, texts: [item.title, item.price] });
  });
  return { path, durationSeconds: seconds, width, height, fps, truth, items, pitch, speed, titleOffset, priceOffset, left, right, itemTop };
}

/** One slide of a deck that builds up: its title, then its bullets one by one. */
export interface BuildUpSlide {
  title: string;
  bullets: string[];
}

/** The bullet glyphs the build-up deck draws, one per slide in turn. */
export const BULLET_GLYPHS = ['\u2022', '\u2013', '\u25aa'] as const;

/** Six slides of two to three bullets each: 17 builds, as in a real presentation's builds. */
export const BUILD_UP_DECK: readonly BuildUpSlide[] = [
  { title: 'Quarterly review', bullets: ['Revenue grew in every region', 'Costs stayed flat', 'Hiring is on plan'] },
  { title: 'Customer stories', bullets: ['Three teams shipped faster', 'Support tickets fell by half', 'Renewals reached a record'] },
  { title: 'What we learned', bullets: ['Small releases are safer', 'Write the test first'] },
  { title: 'Product roadmap', bullets: ['Offline mode in spring', 'Shared folders in summer', 'Audit log by autumn'] },
  { title: 'Risks', bullets: ['Supplier prices may rise', 'Two key people on leave', 'The new office opens late'] },
  { title: 'Next steps', bullets: ['Hire two more engineers', 'Open the Berlin office', 'Review again in March'] },
];

/** A slide of the build-up deck as a person would type it out: its lines and when it is on screen, whole or built. */
export interface BuildUpSlideTruth {
  startS: number;
  endS: number;
  /** The slide's full text, title first, each bullet line with its glyph ("• Costs stayed flat"). */
  lines: string[];
  /** The same without glyphs: the title and the bullets' words. */
  plainLines: string[];
  glyph: string;
}

export interface BuildUpDeckVideo extends GeneratedVideo {
  /** One entry per slide, its whole time on screen and its fullest build's text. */
  slides: BuildUpSlideTruth[];
  /** Seconds each build stays on screen. */
  secondsPerBuild: number;
}

/**
 * A deck whose slides build up bullet by bullet, dark text on a light page: each slide shows its title with its
 * first bullet, then one more bullet every `secondsPerBuild` (4 s by default: two of slide detection's 2-s
 * samples). Bullets are drawn as real glyphs (•, –, ▪ in turn by slide). The truth has one entry per build in
 * `truth` and one per slide, with its full text, in `slides`.
 */
export async function makeBuildUpDeckVideo(o: VideoOptions & { slides?: readonly BuildUpSlide[]; secondsPerBuild?: number }): Promise<BuildUpDeckVideo> {
  const deck = o.slides ?? BUILD_UP_DECK;
  const per = o.secondsPerBuild ?? 4;
  const { width, height, fps } = dims(o, 0);
  const path = join(o.dir, o.name ?? 'build-up-deck.mp4');
  const h = (v: number) => px(height, v);
  const filters: string[] = [];
  const truth: TimedText[] = [];
  const slides: BuildUpSlideTruth[] = [];
  let t = 0;
  deck.forEach((slide, i) => {
    const glyph = BULLET_GLYPHS[i % BULLET_GLYPHS.length]!;
    const start = t;
    const end = start + per * slide.bullets.length;
    filters.push(drawtext({ text: slide.title, x: h(90), y: h(80), size: h(64), color: '0x1d2330', bold: true, from: start, to: end }));
    slide.bullets.forEach((bullet, j) => {
      // Bullet j appears with build j and stays to the end of the slide.
      filters.push(drawtext({ text: `${glyph} ${bullet}`, x: h(110), y: h(220 + j * 100), size: h(44), color: '0x1d2330', from: start + j * per, to: end }));
      truth.push({ startS: start + j * per, endS: start + (j + 1) * per, texts: [slide.title, ...slide.bullets.slice(0, j + 1).map((b) => `${glyph} ${b}`)] });
    });
    slides.push({ startS: start, endS: end, glyph, lines: [slide.title, ...slide.bullets.map((b) => `${glyph} ${b}`)], plainLines: [slide.title, ...slide.bullets] });
    t = end;
  });
  await ffmpeg(['-f', 'lavfi', '-i', `color=c=0xf4f1ea:s=${width}x${height}:r=${fps}`, '-vf', filters.join(','), ...h264Args(path, t)]);
  return { path, durationSeconds: t, width, height, fps, truth, slides, secondsPerBuild: per };
}
