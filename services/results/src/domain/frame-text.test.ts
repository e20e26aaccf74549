import { describe, expect, it } from 'vitest';
import type { Detection } from '@frametext/contracts';
import { rectVertices } from '@frametext/text-analysis';
import { buildUploadResults, groupLines, presentationText } from './frame-text.js';

/** A detection whose box spans x..x+w, y..y+h. */
function det(text: string, x: number, y: number, w: number, h: number, confidence?: number): Detection {
  return {
    text,
    vertices: rectVertices({ x, y, w, h }),
    area: w * h,
    blockType: 'LINE',
    ...(confidence === undefined ? {} : { confidence }),
  };
}

describe('groupLines', () => {
  it('joins blocks on the same row left to right, whatever order they come in', () => {
    const lines = groupLines([det('kW', 300, 102, 40, 20), det('Power', 10, 100, 80, 20), det('42.5', 150, 98, 60, 24)]);
    expect(lines.map((l) => l.text)).toEqual(['Power 42.5 kW']);
    expect(lines[0]!.vertices).toEqual([
      { x: 10, y: 98 },
      { x: 340, y: 98 },
      { x: 340, y: 122 },
      { x: 10, y: 122 },
    ]);
  });

  it('reads rows top to bottom', () => {
    const lines = groupLines([det('third', 10, 200, 60, 20), det('first', 10, 0, 60, 20), det('second', 10, 100, 60, 20)]);
    expect(lines.map((l) => l.text)).toEqual(['first', 'second', 'third']);
  });

  it('uses 0.6 of the average block height as the row tolerance', () => {
    // Blocks 40 px high: tolerance 24 px. Centres 20 px apart share a row; 30 px apart do not.
    expect(groupLines([det('a', 0, 0, 10, 40), det('b', 50, 20, 10, 40)]).map((l) => l.text)).toEqual(['a b']);
    expect(groupLines([det('a', 0, 0, 10, 40), det('b', 50, 30, 10, 40)]).map((l) => l.text)).toEqual(['a', 'b']);
  });

  it('never uses a tolerance below 6 px, so tiny blocks still find their row', () => {
    // Blocks 4 px high: 0.6 x 4 = 2.4 px, raised to 6. Centres 5 px apart share a row; 7 px apart do not.
    expect(groupLines([det('a', 0, 0, 10, 4), det('b', 50, 5, 10, 4)]).map((l) => l.text)).toEqual(['a b']);
    expect(groupLines([det('a', 0, 0, 10, 4), det('b', 50, 7, 10, 4)]).map((l) => l.text)).toEqual(['a', 'b']);
  });

  it('averages confidence over the row and leaves it out when no block has one', () => {
    expect(groupLines([det('a', 0, 0, 10, 20, 90), det('b', 20, 0, 10, 20, 70)])[0]!.confidence).toBe(80);
    expect(groupLines([det('a', 0, 0, 10, 20)])[0]).not.toHaveProperty('confidence');
  });

  it('skips blank blocks and answers no lines for a frame without text', () => {
    expect(groupLines([])).toEqual([]);
    expect(groupLines([det('   ', 0, 0, 10, 10)])).toEqual([]);
    expect(groupLines([det(' 12 ', 0, 0, 10, 10), det('', 20, 0, 10, 10)]).map((l) => l.text)).toEqual(['12']);
  });
});

describe('buildUploadResults', () => {
  const frames = [
    { timestampMs: 0, detections: [det('Battery 81%', 0, 0, 200, 30), det('12.5 kW', 0, 100, 100, 30)] },
    { timestampMs: 5000, detections: [] },
    { timestampMs: 10000, detections: [det('A much longer piece of text', 0, 0, 400, 30)] },
  ];

  it('gives per-frame results, lines, reading entries with time in seconds, and the processing type', () => {
    const built = buildUploadResults(frames, 'numerical');
    expect(built.results).toEqual(frames.map((f) => f.detections));
    expect(built.linesByFrame.map((lines) => lines.map((l) => l.text))).toEqual([['Battery 81%', '12.5 kW'], [], ['A much longer piece of text']]);
    expect(built.ocrResults.map(({ t, fileIndex, text }) => ({ t, fileIndex, text }))).toEqual([
      { t: 0, fileIndex: 0, text: 'Battery 81%\n12.5 kW' },
      { t: 5, fileIndex: 1, text: '' },
      { t: 10, fileIndex: 2, text: 'A much longer piece of text' },
    ]);
    expect(built.ocrResults[0]!.detections).toBe(frames[0]!.detections);
    expect(built.processingType).toBe('numerical');
  });

  it('takes the maxima over every frame', () => {
    expect(buildUploadResults(frames, 'numerical').maxValues).toEqual({ maxTextLength: 27, maxArea: 12000, maxDetections: 2, maxLines: 2 });
    expect(buildUploadResults([], 'numerical').maxValues).toEqual({ maxTextLength: 0, maxArea: 0, maxDetections: 0, maxLines: 0 });
  });
});

describe('presentationText', () => {
  it('writes every slide with its number and time, blank lines between, and marks slides without text', () => {
    const { ocrResults } = buildUploadResults(
      [
        { timestampMs: 0, detections: [det('Welcome', 0, 0, 100, 30), det('Agenda', 0, 60, 100, 30)] },
        { timestampMs: 62_000, detections: [] },
        { timestampMs: 3_725_000, detections: [det('Thanks', 0, 0, 100, 30)] },
      ],
      'presentation',
    );
    expect(presentationText(ocrResults)).toBe('Slide 1 (0:00)\nWelcome\nAgenda\n\nSlide 2 (1:02)\n(no text found)\n\nSlide 3 (1:02:05)\nThanks\n');
  });

  it('keeps one section per slide, its fullest build, with bullets read as ¢ or e written •', () => {
    const frame = (timestampMs: number, lines: string[]) => ({ timestampMs, detections: lines.map((l, i) => det(l, 0, i * 60, 400, 30)) });
    const { ocrResults } = buildUploadResults(
      [
        frame(0, ['Quarterly review', 'e Revenue grew in every region']),
        frame(4_000, ['Quarterly review', 'e Revenue grew in every region', '¢ Costs stayed flat']),
        frame(8_000, ['Next steps', '*Note: dates may move']),
      ],
      'presentation',
    );
    expect(presentationText(ocrResults)).toBe('Slide 1 (0:04)\nQuarterly review\n• Revenue grew in every region\n• Costs stayed flat\n\nSlide 2 (0:08)\nNext steps\n*Note: dates may move\n');
  });

  it('shows tenths of a second when slides are under a second apart, as the results page does', () => {
    const { ocrResults } = buildUploadResults(
      [0, 500, 1_000].map((timestampMs) => ({ timestampMs, detections: [det('Slide', 0, 0, 100, 30)] })),
      'presentation',
    );
    expect(presentationText(ocrResults).split('\n').filter((l) => l.startsWith('Slide '))).toEqual(['Slide 1 (0:00.0)', 'Slide 2 (0:00.5)', 'Slide 3 (0:01.0)']);
  });
});
