import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { captionCuesInBox, captionHeight, captionReading, wordsInside, type CaptionSourceFrame } from './caption-reading.js';
import { rectVertices, type Point, type TextBlock } from './geometry.js';
import { linesInBox, rectInPixels } from './region-text.js';
import { captionCues, frameInterval, sameCaption } from './subtitles.js';
import { editDistance } from './text-similarity.js';
import { blockLimits, filterBlocks, openFilters } from './viewer-filters.js';

const quad = (x: number, y: number, w: number, h: number): Point[] => rectVertices({ x, y, w, h });
/** A word at x, its top at y; 30 px tall as the caption's capitals are. */
const word = (text: string, x: number, y: number, confidence = 95, h = 30) => ({ text, vertices: quad(x, y, text.length * 20, h), confidence });
/** A LINE block holding its words, as the Basic engine gives them. */
const lineOf = (...words: ReturnType<typeof word>[]): TextBlock => {
  const xs = words.flatMap((w) => w.vertices.map((v) => v.x));
  const ys = words.flatMap((w) => w.vertices.map((v) => v.y));
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { text: words.map((w) => w.text).join(' '), vertices: quad(x, y, Math.max(...xs) - x, Math.max(...ys) - y), confidence: 90, words };
};
const box = { x: 200, y: 500, w: 900, h: 200 };

describe('reading a caption box', () => {
  it('drops specks glued on a caption line: marks without a letter, unsure short words at its ends, unpaired quotes', () => {
    const blocks = [lineOf(word('*,', 240, 610, 81), word('“The', 300, 600, 88), word('camp', 400, 600), word('lights', 500, 600), word('*', 1010, 605, 83, 15))];
    const words = wordsInside(blocks, box);
    expect(captionReading(words, captionHeight([words]))).toEqual({ lines: ['The camp lights'], confidence: 92.7 });
    // A short word read surely stays at the edge; read unsurely it goes.
    const sure = wordsInside([lineOf(word('Is', 300, 600, 91), word('anyone', 360, 600), word('a.', 520, 600, 64))], box);
    expect(captionReading(sure, 30).lines).toEqual(['Is anyone']);
  });

  it('drops unsure words, rows much shorter than the caption letters, and words cut off by a wide gap', () => {
    const blocks = [
      lineOf(word('Warm', 300, 600), word('soup', 400, 600), word('ess', 1000, 600, 97)),
      lineOf(word('wots', 300, 560, 33)),
      lineOf(word('EXIT', 300, 660, 97, 16), word('24', 400, 660, 97, 16)),
    ];
    const words = wordsInside(blocks, box);
    expect(captionHeight([words])).toBe(30);
    expect(captionReading(words, 30).lines).toEqual(['Warm soup']);
  });

  it('keeps the words inside the box even when a speck glued to their line lies outside it', () => {
    const blocks = [lineOf(word('Ten', 300, 600), word('more', 380, 600), word('minutes', 480, 600), word('xx', 1100, 600, 40))];
    expect(linesInBox(blocks, box)).toEqual([]);
    expect(captionReading(wordsInside(blocks, box), 30).lines).toEqual(['Ten more minutes']);
  });

  it('keeps a word whose descenders poke out of the box, and drops one lying mostly outside it', () => {
    // The box ends at 700: "going," reaches 706 with its g and comma; "gypsy" lies mostly below.
    const blocks = [lineOf(word('Keep', 300, 670), word('going,', 400, 670, 95, 36)), lineOf(word('gypsy', 300, 690, 95, 36))];
    expect(captionReading(wordsInside(blocks, box), 30).lines).toEqual(['Keep going,']);
  });

  it('reads blocks without words or confidence (other engines) as they are, and translated blocks in translation', () => {
    const blocks: TextBlock[] = [{ text: 'Bonjour à tous', vertices: quad(300, 600, 300, 30) }];
    expect(captionReading(wordsInside(blocks, box), 30)).toEqual({ lines: ['Bonjour à tous'] });
    const translated = { ...lineOf(word('Bonsoir', 300, 600), word('tout', 460, 600), word('le', 560, 600), word('monde', 620, 600)), text: 'Good evening all', originalText: 'Bonsoir tout le monde' };
    expect(captionReading(wordsInside([translated], box), 30).lines).toEqual(['Good evening all']);
  });
});

describe('cues of a caption box', () => {
  it('merges frames of one caption read differently, keeps a sure caption seen once, drops unsure flicker, bridges a missed frame', () => {
    const frames = [
      { t: 0, text: '' },
      { t: 0.5, text: 'ood evening and welcome', confidence: 96 },
      { t: 1, text: 'Good evening and welcome', confidence: 88 },
      { t: 1.5, text: 'Good evening and welcome', confidence: 85 },
      { t: 2, text: 'wet', confidence: 62 },
      { t: 2.5, text: '' },
      { t: 3, text: 'Stop!', confidence: 96 },
      { t: 3.5, text: 'Where winter never', confidence: 95 },
      { t: 4, text: '' },
      { t: 4.5, text: 'winter never ends', confidence: 95 },
      { t: 5, text: 'Tonight we travel\nto the edge of the ice', confidence: 94 },
      { t: 5.5, text: 'Tonight we travel north\nthe edge of the ice', confidence: 74 },
      { t: 6, text: 'Tonight we travel north\nto the edge of the ice', confidence: 93 },
    ];
    expect(captionCues(frames, 0.5)).toEqual([
      { start: 0.5, end: 2, text: 'Good evening and welcome' },
      { start: 3, end: 3.5, text: 'Stop!' },
      { start: 3.5, end: 5, text: 'Where winter never' },
      { start: 5, end: 6.5, text: 'Tonight we travel north\nto the edge of the ice' },
    ]);
  });

  it('tells captions apart by their words, not by their common short ones', () => {
    expect(sameCaption('The wind is too strong today', '. The wind is too stroriy today')).toBe(true);
    expect(sameCaption('and try the pass again', 'We will wait for the morning\nand try the pass again')).toBe(true);
    expect(sameCaption('Is anyone there?', 'Only the dogs')).toBe(false);
    expect(sameCaption('Keep moving', 'The camp lights are close now')).toBe(false);
  });
});

interface Fixture {
  width: number;
  height: number;
  truth: { text: string; startS: number; endS: number }[];
  frames: { t: number; blocks: { text: string; confidence?: number; vertices: [number, number][]; words: { text: string; confidence?: number; vertices: [number, number][] }[] }[] }[];
}

const points = (v: [number, number][]) => v.map(([x, y]) => ({ x, y }));

/** Where merging identical lines of the box (the cues before this reading) landed on each fixture. */
const CASES = [
  { file: 'captions-corpus-ocr-0.5s.json', interval: 0.5, identicalCues: 61 },
  { file: 'captions-corpus-ocr-1s.json', interval: 1, identicalCues: 33 },
];

describe.each(CASES)('the captions corpus as the Basic engine read it ($file)', ({ file, interval, identicalCues }) => {
  const fixture = JSON.parse(readFileSync(new URL(`../test/fixtures/${file}`, import.meta.url), 'utf8')) as Fixture;
  const space = { width: fixture.width, height: fixture.height };
  const frames: CaptionSourceFrame[] = fixture.frames.map((f) => ({
    t: f.t,
    space,
    blocks: f.blocks.map((b) => ({ text: b.text, confidence: b.confidence, vertices: points(b.vertices), words: b.words.map((w) => ({ text: w.text, confidence: w.confidence, vertices: points(w.vertices) })) })),
  }));
  /** The Region view's first box where it starts, and its filters as they start. */
  const greenBox = { x: 1 / 6, y: 0.74, w: 2 / 3, h: 0.22 };
  const filters = openFilters(blockLimits(frames.map((f) => f.blocks)));

  it('gives one cue per caption, each within two intervals of the caption, reading 95% of its characters right', () => {
    const cues = captionCuesInBox(frames, greenBox, filters);
    expect(cues).toHaveLength(fixture.truth.length);
    let errors = 0;
    let characters = 0;
    cues.forEach((cue, i) => {
      const truth = fixture.truth[i]!;
      expect(sameCaption(cue.text, truth.text), `cue ${i + 1} "${cue.text}" for "${truth.text}"`).toBe(true);
      expect(Math.abs(cue.start - truth.startS)).toBeLessThanOrEqual(2 * interval);
      expect(Math.abs(cue.end - truth.endS)).toBeLessThanOrEqual(2 * interval);
      errors += editDistance(cue.text.replace(/\n/g, ' '), truth.text.replace(/\n/g, ' '));
      characters += truth.text.length;
    });
    expect(1 - errors / characters).toBeGreaterThanOrEqual(0.95);
  });

  it('where merging identical lines of the box gave several cues per caption, many with specks glued on', () => {
    const box = rectInPixels(greenBox, space.width, space.height);
    const plain = frames.map((f) => ({ t: f.t!, text: linesInBox(filterBlocks(f.blocks, filters), box).join('\n') }));
    const identical = plain.flatMap((f, i) => (i > 0 && f.text === plain[i - 1]!.text ? [] : f.text ? [f.text] : []));
    expect(identical).toHaveLength(identicalCues);
    expect(frameInterval(plain.map((f) => f.t))).toBe(interval);
  });
});
