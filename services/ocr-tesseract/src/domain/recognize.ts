import type { Detection, MediaContent, Word } from '@frametext/contracts';
import { MASK_MAX_WHITE_SHARE, mergeRuns, readableRuns, runCandidate, sortByReadingOrder, wantsMaskPass as sharedWantsMaskPass } from '@frametext/text-analysis';
import { changedCells, patchPixels, readingAreas, touches, type MemoryHandle, type Reading } from './frame-memory.js';
import { boxArea, boxVertices, grow, rectOf, unionBox, type Box } from './geometry.js';
import { PLAIN_BACKGROUND, cropBare, prepareFrame, stackMaskAreas } from './preprocess.js';
import { readSevenSegment, type SegmentWord } from './seven-segment.js';
import type { StepVerdict } from './step-gate.js';
import { parseTsv, type TsvLine, type TsvWord } from './tsv.js';
import type { WhiteMaskMode } from '../config.js';

export type Pass = 'bare' | 'mask';

/** Runs Tesseract on one PGM or PPM image and returns its TSV (a TesseractPool, or a stand-in in tests). */
export type TesseractRunner = (image: Buffer) => Promise<string>;

export interface RecognizeOptions {
  whiteMask: WhiteMaskMode;
  whiteThreshold: number;
  minWordConfidence: number;
  maxPixels: number;
  /** A frame larger than this is scaled down to it before it is read (prepareFrame). */
  maxReadPixels?: number;
  /** CPU time (ms) a frame's Tesseract reads may use in all (cpu-budget.ts); no limit when absent. */
  frameCpuBudgetMs?: number;
}

export interface FrameText {
  detections: Detection[];
  words: Word[];
  imageWidth: number;
  imageHeight: number;
  passes: Pass[];
  whiteShare: number;
  /** What the mask pass changed where both passes read (undefined: they did not both read). */
  maskVerdicts?: StepVerdict;
  /** What the bare pass added over a picture to the mask's reading (undefined: it did not run next to the mask). */
  bareVerdicts?: StepVerdict;
}

/** What a frame's reading knows of its upload. */
export interface UploadState {
  /** The upload's last readings, so text where the frame did not change is carried over (FrameMemories.of). */
  memory?: MemoryHandle<Candidate>;
  /** Whether the seven-segment reader runs (by default on numerical uploads: wantsSegmentReader). */
  readSegments?: boolean;
  /**
   * Told how many of the segment reader's values the frame kept: none at once when it read none, else once the
   * frame's words are merged, since a value the reader took from print (printAt) does not count, and an upload of
   * printed digits stops paying for the reader.
   */
  segmentsRead?: (values: number) => void;
  /**
   * Asked on a plain background with white on it, before the passes: whether the mask pass still runs next to the
   * bare pass (the upload's StepGate; by default it does). Over a picture the mask pass always runs, since the bare
   * pass reads texture there, and this is not asked.
   */
  readMask?: () => boolean | Promise<boolean>;
  /**
   * Asked over a picture with white on it, before the passes: whether the bare pass runs next to the mask pass (the
   * upload's StepGate; by default it does). When the mask reads nothing the bare pass runs anyway.
   */
  readBare?: () => boolean | Promise<boolean>;
  /** Whether the frame was cut from a video: a small one is read enlarged (preprocess.ts, enlargement). */
  fromVideo?: boolean;
}

/** When the mask pass runs (`auto`: a little near-white over a picture): text-analysis's rule, shared with the Local engine. */
export function wantsMaskPass(mode: WhiteMaskMode, whiteShare: number, mediaContent: MediaContent | undefined): boolean {
  return sharedWantsMaskPass(mode, whiteShare, mediaContent);
}

export interface Candidate {
  words: TsvWord[];
  confidence: number;
}

/** How far from a word read this frame a changed cell may be and still be explained by it (pixels). */
const EXPLAINED_MARGIN = 8;
/** Past this share of the frame, the changes are read again with a whole pass. */
const REREAD_MAX_SHARE = 0.5;

/** The share of `a` that `b` covers (0-1). */
function overlapShare(a: Box, b: Box): number {
  const w = Math.min(a.left + a.width, b.left + b.width) - Math.max(a.left, b.left);
  const h = Math.min(a.top + a.height, b.top + b.height) - Math.max(a.top, b.top);
  return w > 0 && h > 0 ? (w * h) / Math.max(1, boxArea(a)) : 0;
}

/** Whether either box has more than `share` of it covered by the other. */
const overlaps = (a: Box, b: Box, share: number) => overlapShare(a, b) > share || overlapShare(b, a) > share;

/**
 * A line read from a crop, moved to where the crop sits in the frame. Its words' blocks move with it, or are left
 * out (`blocks: false`) where the crop's layout is not the frame's (rectangles stacked into one image).
 */
function shiftLine(line: TsvLine, dx: number, dy: number, blocks = true): TsvLine {
  const move = (b: Box): Box => ({ ...b, left: b.left + dx, top: b.top + dy });
  return { box: move(line.box), words: line.words.map((w) => ({ ...w, box: move(w.box), block: blocks && w.block ? move(w.block) : undefined })) };
}

const runBox = (c: Candidate): Box => unionBox(c.words.map((w) => w.box));

/**
 * Characters no reading should hold: anything but letters, digits, spaces and the punctuation text and values use.
 * Inside a number, quotes count too (`00:00'05`). Tesseract writes them where it half-sees a glyph (`37.2€` for
 * `37.2C`, `3790C€` for `37.0C`).
 */
export function strayCharacters(text: string): number {
  let stray = 0;
  for (const word of text.split(/\s+/)) {
    const allowed = /\d/.test(word) ? /[\p{L}\p{N}.,:;%°/+\-\u2212$€£()]/u : /[\p{L}\p{N}.,:;!?'"%°/+\-\u2212&()$€£@#*]/u;
    for (const ch of word) if (!allowed.test(ch)) stray += 1;
  }
  return stray;
}

const runText = (c: Candidate) => c.words.map((w) => w.text).join(' ');
/** A run's characters with case and spaces aside. */
const looseText = (c: Candidate) => runText(c).replace(/\s+/g, '').toLowerCase();

const POINTS = /[.:,]/g;
/**
 * Whether the mask lost points the bare reading of the same spot has: the same characters but for more decimal points,
 * colons or commas in the bare one. The mask's 3x3 median can wipe out a soft decimal point (`369C` at 89 where the
 * bare pass read `36.9 C` at 73).
 */
const lostPoints = (mask: Candidate, bare: Candidate) =>
  looseText(bare).replace(POINTS, '') === looseText(mask).replace(POINTS, '') && (looseText(bare).match(POINTS)?.length ?? 0) > (looseText(mask).match(POINTS)?.length ?? 0);

/**
 * Over a picture the bare pass keeps only runs read at least this sure: Tesseract reads a picture's texture as words
 * too, mostly under 60, while text it really sees on a picture (a menu's grey labels, a dark line on a lit page) it
 * reads at 90 or more.
 */
export const SURE_OVER_PICTURE = 80;

/**
 * What the bare pass adds over a picture: its sure runs (SURE_OVER_PICTURE), and for StepGate, as gained, those at
 * spots where the mask read nothing.
 */
export function bareOverPicture(mask: Candidate[], bare: Candidate[]): { runs: Candidate[]; verdicts: StepVerdict } {
  const runs = bare.filter((b) => b.confidence >= SURE_OVER_PICTURE);
  const maskBoxes = mask.map(runBox);
  const gained = runs.filter((b) => !maskBoxes.some((m) => overlaps(runBox(b), m, 0.5))).length;
  return { runs, verdicts: { gained, lost: 0 } };
}

/**
 * Whether the mask's runs are dark print on near-white paper rather than white text: white strokes cover a
 * fraction of their words' boxes, paper most of it. Judged over all the runs' area.
 */
export function readsPaper(mask: Candidate[], frame: { width: number; maskPixels: Buffer }): boolean {
  let white = 0;
  let area = 0;
  for (const box of mask.map(runBox)) {
    for (let y = box.top; y < box.top + box.height; y++) {
      const row = frame.maskPixels.subarray(y * frame.width + box.left, y * frame.width + box.left + box.width);
      for (const v of row) if (v === 0) white++;
    }
    area += boxArea(box);
  }
  return area > 0 && white / area > PAPER_SHARE;
}

/** Past this share of near-white in the mask's word boxes, the near-white is paper, not the text. */
const PAPER_SHARE = 0.5;

/** A bare reading this many points surer than the mask's reading of the same spot is kept instead. */
const SURER_BY = 5;

/** Where both passes read: the mask's runs with what the bare pass read at the same spot. */
interface Spot {
  mask: Candidate;
  /** The bare runs it covers more than half of. */
  bare: Candidate[];
  /** Whether a bare run there is to be kept instead (see preferMask). */
  outdone: boolean;
}

function spotsOf(mask: Candidate[], bare: Candidate[]): Spot[] {
  return mask.map((m) => {
    const box = runBox(m);
    const own = strayCharacters(runText(m));
    const there = bare.filter((b) => overlapShare(runBox(b), box) > 0.5);
    // Only a reading of the same stretch of text can outdo the mask's, not one of a part of it (a carried-over `kW`
    // on its own against the mask's `131 kW`).
    const outdone = there.some((b) => {
      if (overlapShare(box, runBox(b)) <= 0.5) return false;
      const stray = strayCharacters(runText(b));
      // The same characters in another case or spacing (`kw` for `kW`, `$18.78` for `$ 18.78`): the mask's crisp
      // glyphs tell those better, however sure the bare pass is.
      const sameCharacters = looseText(b) === looseText(m);
      return stray < own || (stray === own && (lostPoints(m, b) || (!sameCharacters && b.confidence >= m.confidence + SURER_BY)));
    });
    return { mask: m, bare: there, outdone };
  });
}

/**
 * White text is the mask pass's: where both passes read the same spot, the crisp mask reading is kept (`kW`, not
 * `kw`), unless it holds stray characters the bare reading of that spot does not (the mask cut a coloured glyph in
 * half), or the bare reading, with no more stray characters, has the decimal point the mask lost (lostPoints) or,
 * not just another case or spacing, is surer by SURER_BY points or more. Only a bare reading of the whole run can
 * replace it, not one of a part (spotsOf). The mask cuts white text out of a soft, noisy phone picture less cleanly
 * than Tesseract's own thresholding of it: on the blue instrument screen it read `4325 rpm` at 85 where the bare
 * pass read `425 rpm` at 96 (values found: 92.9 % with the mask's reading always kept, 95.4 % at a 10-point margin,
 * 96.3 % at 5, bare Tesseract 95.8 %; the charger, plain and filmed, the same or better). Everything else either
 * pass read is kept.
 */
export function preferMask(mask: Candidate[], bare: Candidate[]): Candidate[] {
  const kept = spotsOf(mask, bare).filter((s) => !s.outdone).map((s) => s.mask);
  const keptBoxes = kept.map(runBox);
  return [...kept, ...bare.filter((b) => !keptBoxes.some((m) => overlapShare(runBox(b), m) > 0.5))];
}

/**
 * What the mask pass made of a frame, for StepGate to weigh over an upload's frames. It gained the spots where its
 * reading was kept and the bare pass read other characters or nothing; it lost those where the bare pass's different
 * reading was kept. Where both read the same characters, spaces aside, it neither gained nor lost; letter case
 * counts (`kW` against `kw`).
 */
export function maskVerdicts(mask: Candidate[], bare: Candidate[]): StepVerdict {
  const verdicts = { gained: 0, lost: 0 };
  const spaceless = (c: Candidate) => runText(c).replace(/\s+/g, '');
  for (const spot of spotsOf(mask, bare)) {
    if (spot.outdone) verdicts.lost++;
    else if (!spot.bare.some((b) => spaceless(b) === spaceless(spot.mask))) verdicts.gained++;
  }
  return verdicts;
}

/**
 * Seven-segment displays (meters, scales, supplies, clocks) show numbers: the segment reader runs on frames of
 * numerical uploads (and when no media content is given), not on captions or slides.
 */
export function wantsSegmentReader(mediaContent: MediaContent | undefined): boolean {
  return mediaContent === undefined || mediaContent === 'numerical';
}

/** Tesseract words read at least this sure may be print rather than a display's digits misread (see withSegmentWords). */
export const SURE_PRINT = 85;

/** Letters Tesseract reads in place of segment digits, and the digit each stands for. */
const DIGIT_LOOKALIKES: Record<string, string> = { O: '0', o: '0', D: '0', Q: '0', I: '1', l: '1', i: '1', '|': '1', '!': '1', Z: '2', z: '2', S: '5', s: '5', G: '6', b: '6', T: '7', B: '8', g: '9', q: '9' };

/** The digits a reading shows, look-alike letters taken as the digits they resemble (`I2.O5` shows 1205). */
const digitsShown = (text: string) => [...text].map((ch) => DIGIT_LOOKALIKES[ch] ?? ch).join('').replace(/\D/g, '');

/**
 * A word of at least four letters with one no seven-segment display can show is print, unless Tesseract made it up
 * (under 50: `mous` for `-0.4`).
 */
const printedWord = (w: TsvWord) => w.confidence >= 50 && (w.text.match(/\p{L}/gu)?.length ?? 0) >= 4 && /[KMVWXkmvwx]/.test(w.text);

/**
 * Whether Tesseract's words at a display are print the segment reader took for segments: a word no display could show
 * (`"Multilines"`, read as `11`), or words all read surely (SURE_PRINT) that are clean numbers (a receipt's `5.60`,
 * read as `560`) or show other digits than the value (a page's `100` read as `0.0`). Its guesses at segment digits
 * mix in look-alike letters (`I2.O5` for `12.05`); words without a digit (`!` over an LCD's `0.601`) show no print
 * of digits at all.
 */
function printAt(there: TsvWord[], value: string): boolean {
  if (there.some(printedWord)) return true;
  if (there.length === 0 || !there.every((w) => w.confidence >= SURE_PRINT)) return false;
  const text = there.map((w) => w.text).join('');
  return there.every((w) => CLEAN_NUMBER.test(w.text)) || (/\d/.test(text) && digitsShown(text) !== digitsShown(value));
}

/** A number as print shows it: digits with their points, commas and colons, no look-alike letters. */
const CLEAN_NUMBER = /^[-+]?\d[\d.,:]*%?$/;

/**
 * Puts the segment reader's values among Tesseract's runs: Tesseract's words on a display give way to the value read
 * there, unless they are print (printAt), where the value is dropped instead. Every other word stays.
 */
export function withSegmentWords(candidates: Candidate[], segments: SegmentWord[]): Candidate[] {
  if (segments.length === 0) return candidates;
  const words = candidates.flatMap((c) => c.words);
  const displays = segments
    .map((s) => ({ segment: s, area: grow(s.box, Math.round(s.box.height / 4), Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER) }))
    // Print is judged by the words on the display itself, not by a label beside it.
    .filter(({ segment }) => !printAt(words.filter((w) => overlaps(w.box, segment.box, 0.5)), segment.text));
  const kept = candidates
    .map((c) => ({ ...c, words: c.words.filter((w) => !displays.some(({ area }) => overlaps(w.box, area, 0.3))) }))
    .filter((c) => c.words.length > 0);
  return [...kept, ...displays.map(({ segment }) => ({ words: [segment], confidence: segment.confidence }))];
}

const boxRect = (w: TsvWord) => rectOf(w.box);

/**
 * Keeps the words worth showing (some text, a plausible box, a confidence above the floor) and cuts the line at
 * wide gaps (a dashboard's label and its value far to the right): one candidate per run of words, so a value keeps
 * the same box on every frame whether or not Tesseract joined it to its label, and tracking can follow it. The
 * rules are text-analysis's readableRuns, which the Local engine in the browser applies too.
 */
function cleanLine(line: TsvLine, width: number, height: number, minConfidence: number, keepValues: boolean): Candidate[] {
  return readableRuns(line.words, boxRect, { minConfidence, keepValues, imageWidth: width, imageHeight: height }).map(runCandidate);
}

/**
 * Merges the passes' lines (text-analysis's mergeRuns, shared with the Local engine): lines by confidence, best
 * first; a word another kept line already holds at the same spot is dropped, and a line left without words is
 * dropped. So a caption read by both passes appears once, with the better reading, and nothing only one pass saw is
 * lost. Reading order: top to bottom, then left to right.
 */
export function mergeLines(candidates: Candidate[]): Candidate[] {
  return readingOrder(mergeRuns(candidates, boxRect));
}

const boxKey = (b: Box) => `${b.left},${b.top},${b.width},${b.height}`;

/**
 * The order a person reads the runs in, as Tesseract's layout analysis has it: block by block (a column, a
 * paragraph, a caption), the blocks top to bottom and side by side left to right, and each block's runs top to bottom,
 * left to right. A two-column page reads down its first column, then its second, where a plain top-to-bottom order
 * would interleave their lines. A run whose block is not known (a rectangle read in a stacked image) is a block of
 * its own.
 */
export function readingOrder(candidates: Candidate[]): Candidate[] {
  const blocks = new Map<string, { box: Box; runs: Candidate[] }>();
  for (const c of candidates) {
    const box = c.words[0]?.block ?? runBox(c);
    const key = boxKey(box);
    const block = blocks.get(key) ?? { box, runs: [] };
    block.runs.push(c);
    blocks.set(key, block);
  }
  return sortByReadingOrder([...blocks.values()], (b) => rectOf(b.box)).flatMap((b) => sortByReadingOrder(b.runs, (c) => rectOf(runBox(c))));
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/** A line as results take it, from its text, box and confidence and its words' (Tesseract's runs and PP-OCR's lines). */
export function lineDetection(text: string, box: Box, confidence: number, words: readonly { text: string; box: Box; confidence: number }[]): Detection {
  return {
    text,
    vertices: boxVertices(box),
    area: boxArea(box),
    confidence: round1(confidence),
    blockType: 'LINE',
    words: words.map((w): Word => ({ text: w.text, vertices: boxVertices(w.box), confidence: round1(w.confidence) })),
  };
}

/** A run's boxes in the pixels of the image as uploaded, from those of the frame read at `scale` times its size. */
function unscaled(c: Candidate, scale: number): Candidate {
  const at = (v: number) => Math.round(v / scale);
  const box = (b: Box): Box => ({ left: at(b.left), top: at(b.top), width: Math.max(1, at(b.left + b.width) - at(b.left)), height: Math.max(1, at(b.top + b.height) - at(b.top)) });
  return { ...c, words: c.words.map((w) => ({ ...w, box: box(w.box) })) };
}

const toDetection = (c: Candidate): Detection => lineDetection(c.words.map((w) => w.text).join(' '), unionBox(c.words.map((w) => w.box)), c.confidence, c.words);

/**
 * Reads one frame with the passes it needs: the bare pass on the grey frame alone when there is no white text to
 * look for; both passes on a plain background with some white on it (a dashboard), unless the upload's gate found
 * the mask pass does not pay there (`readMask`); over a picture, the pass on the near-white mask, and the bare one
 * only if the mask had nothing. The passes' lines are merged without duplicates. With a memory of the upload's last
 * readings, each pass on a plain background reads only the rectangles that changed since its last reading and
 * carries over the runs of words it found elsewhere, boxes and all: a slide shown for a while is read once, and a
 * dashboard's changing values are read in small crops. The bare pass also leaves out changes that this frame's mask
 * reading explains (white values it read).
 */
export async function recognizeFrame(
  image: Buffer,
  opts: RecognizeOptions,
  run: TesseractRunner,
  mediaContent?: MediaContent,
  upload: UploadState = {},
): Promise<FrameText> {
  try {
    return await readFrameText(image, opts, run, mediaContent, upload);
  } finally {
    // Read or failed (an image that cannot be decoded too): frames waiting for this one's readings go on.
    upload.memory?.settle();
  }
}

async function readFrameText(
  image: Buffer,
  opts: RecognizeOptions,
  run: TesseractRunner,
  mediaContent: MediaContent | undefined,
  { memory, readSegments = wantsSegmentReader(mediaContent), segmentsRead, readMask = () => true, readBare = () => true, fromVideo = false }: UploadState,
): Promise<FrameText> {
  const frame = await prepareFrame(image, { whiteThreshold: opts.whiteThreshold, maxPixels: opts.maxPixels, maxReadPixels: opts.maxReadPixels, enlargeSmall: fromVideo });
  const segments = readSegments ? readSevenSegment({ width: frame.width, height: frame.height, bright: frame.brightPixels, grey: frame.greyPixels }) : [];
  // No value read: the verdict is in at once, and the upload's frames waiting on it go on.
  if (readSegments && segments.length === 0) segmentsRead?.(0);
  const keepValues = mediaContent === 'numerical';
  // The confidence floor is for texture read as words: on a page (a plain screen, or a frame mostly white, as a
  // photographed receipt is) the bare pass keeps every word Tesseract read, as Tesseract does (a receipt's
  // `SX-575-1` at 20), its confidence going with it.
  let page = frame.plainShare >= PLAIN_BACKGROUND || frame.whiteShare > MASK_MAX_WHITE_SHARE;
  const floor = (pass: Pass) => (pass === 'bare' && page ? 0 : opts.minWordConfidence);
  const clean = (pass: Pass) => (line: TsvLine) => cleanLine(line, frame.width, frame.height, floor(pass), keepValues);
  /** What each pass compares frames by: the grey frame for the bare pass, the mask for the mask pass. */
  const compared = (pass: Pass) => (pass === 'bare' ? frame.greyPixels : frame.maskPixels);
  const passes: Pass[] = [];
  const readWhole = async (pass: Pass) => {
    passes.push(pass);
    const candidates = parseTsv(await run(pass === 'bare' ? frame.bare : frame.whiteMask)).flatMap(clean(pass));
    memory?.remember(pass, { width: frame.width, height: frame.height, pixels: compared(pass), candidates });
    return candidates;
  };
  const readBareArea = async (area: Box) => parseTsv(await run(cropBare(frame, area))).flatMap((line) => clean('bare')(shiftLine(line, area.left, area.top)));
  /** The mask's rectangles read as one stacked image, each line moved back to where its rectangle sits in the frame. */
  const readStacked = async (areas: Box[]) => {
    const { image, placed } = stackMaskAreas(frame, areas);
    return parseTsv(await run(image)).flatMap((line) => {
      const middle = line.box.top + line.box.height / 2;
      const at = placed.find((p) => middle >= p.top && middle < p.top + p.area.height);
      return at ? clean('mask')(shiftLine(line, at.area.left, at.area.top - at.top, false)) : [];
    });
  };
  /**
   * A pass that spares what did not change since its last reading (`last`): the runs of words it found where
   * nothing changed are carried over, and the rectangles around the changes are read again, except changes next to
   * a run in `explained` (this frame's mask reading). Video compression blurs static text a little from frame to
   * frame, so a changed rectangle is read again rather than trusted. The whole frame is read when there is nothing
   * to compare with or the changes cover much of it.
   */
  const readChanges = async (pass: Pass, last: Reading<Candidate> | undefined, explained: Candidate[] = []) => {
    if (!last || last.width !== frame.width || last.height !== frame.height) return readWhole(pass);
    const changed = changedCells(last.pixels, compared(pass), frame.width, frame.height);
    const explainedBoxes = explained.map(runBox);
    const unexplained = changed.filter((cell) => !explainedBoxes.some((b) => touches(cell, b, EXPLAINED_MARGIN)));
    const unchanged = (c: Candidate) => !changed.some((cell) => touches(cell, runBox(c)));
    if (unexplained.length === 0) return last.candidates.filter(unchanged);
    const runs = last.candidates.map(runBox);
    const near = readingAreas(unexplained, runs, frame.width, frame.height);
    // The mask's rectangles are read stacked in one image; the bare pass reads one rectangle around them all (read
    // apart, a scrolling list's prices lost their titles' company and came back misread).
    const areas = pass === 'mask' ? near : readingAreas([unionBox(near)], runs, frame.width, frame.height);
    if (areas.reduce((sum, a) => sum + boxArea(a), 0) > REREAD_MAX_SHARE * frame.width * frame.height) return readWhole(pass);
    passes.push(pass);
    const reread = pass === 'mask' ? await readStacked(areas) : (await Promise.all(areas.map(readBareArea))).flat();
    const outside = (c: Candidate) => !areas.some((a) => touches(a, runBox(c)));
    memory?.remember(pass, {
      width: frame.width,
      height: frame.height,
      pixels: patchPixels(last.pixels, compared(pass), frame.width, areas),
      candidates: [...last.candidates.filter(outside), ...reread],
    });
    return [...last.candidates.filter((c) => outside(c) && unchanged(c)), ...reread];
  };
  const candidates: Candidate[] = [];
  let verdicts: StepVerdict | undefined;
  let bareVerdicts: StepVerdict | undefined;
  const last = await memory?.previous();
  let mode: 'bare' | 'both' | 'picture';
  if (!wantsMaskPass(opts.whiteMask, frame.whiteShare, mediaContent)) mode = 'bare';
  else if (opts.whiteMask === 'always') mode = 'both';
  else if (frame.plainShare < PLAIN_BACKGROUND) mode = 'picture';
  else mode = (await readMask()) ? 'both' : 'bare';
  if (mode === 'bare') {
    candidates.push(...(await readChanges('bare', last?.bare)));
  } else if (mode === 'both') {
    // Text on a plain background: the bare pass reads every colour of it, the mask the white text more cleanly.
    // Without earlier readings, both at once, so they can share one Tesseract process.
    const [mask, bare] = last ? [await readChanges('mask', last.mask), undefined] : await Promise.all([readWhole('mask'), readWhole('bare')]);
    const bareRuns = bare ?? (await readChanges('bare', last?.bare, mask));
    verdicts = maskVerdicts(mask, bareRuns);
    candidates.push(...preferMask(mask, bareRuns));
  } else {
    // White over a picture. When the mask's runs are dark print on white paper (readsPaper: a photographed receipt
    // lit unevenly, whose lit part alone is near-white), the frame is a page: the bare pass reads all of it, as on a
    // page. Otherwise the mask reads the white text, and the bare pass adds what else Tesseract sees surely (grey or
    // coloured labels), not the picture's texture; it runs while it adds something to the upload's frames
    // (StepGate), and whenever the mask read nothing. The mask is read whole: the picture's moving highlights leave
    // specks in it all over, and crops cut among them read a value as `22.4 |` (84 % of the telemetry values
    // against 97 %).
    const mask = await readWhole('mask');
    candidates.push(...mask);
    page = mask.length > 0 && readsPaper(mask, frame);
    if (mask.length === 0 || page) candidates.push(...(await readWhole('bare')));
    else if (await readBare()) {
      const added = bareOverPicture(mask, await readWhole('bare'));
      candidates.push(...added.runs);
      bareVerdicts = added.verdicts;
    }
  }
  const withSegments = withSegmentWords(candidates, segments);
  if (segments.length > 0) segmentsRead?.(segments.filter((s) => withSegments.some((c) => c.words.includes(s))).length);
  const detections = mergeLines(withSegments).map((c) => toDetection(frame.scale === 1 ? c : unscaled(c, frame.scale)));
  return {
    detections,
    words: detections.flatMap((d) => d.words ?? []),
    imageWidth: Math.round(frame.width / frame.scale),
    imageHeight: Math.round(frame.height / frame.scale),
    passes,
    whiteShare: frame.whiteShare,
    maskVerdicts: verdicts,
    bareVerdicts,
  };
}
