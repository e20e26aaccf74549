import { describe, expect, it } from 'vitest';
import { detectionSchema } from '@frametext/contracts';
import { readVisionText } from '../src/domain/vision-text.js';
import { visionFixture } from './support/fake-google.js';

const box = (x0: number, y0: number, x1: number, y1: number) => [
  { x: x0, y: y0 },
  { x: x1, y: y0 },
  { x: x1, y: y1 },
  { x: x0, y: y1 },
];

describe('Vision full text to detections (the Basic engine’s shape)', () => {
  it('gives one detection per line, cut at wide gaps, with boxes, areas, 0-100 confidences, words, in reading order', () => {
    const { detections, words } = readVisionText(visionFixture('dashboard').fullTextAnnotation, { scale: 1, grouping: 'line' });
    expect(detections.map((d) => d.text)).toEqual(['Battery', '45%', 'Power 12.5 W', 'Elapsed 00:12:30', 'Mode ECO']);
    // "Battery ... 45%" is one line for Vision; cut apart, the value keeps its own box, as tracking needs.
    expect(detections[1]).toMatchObject({ text: '45%', vertices: box(1004, 58, 1108, 102), area: 104 * 44, confidence: 98, blockType: 'LINE' });
    expect(detections[2]).toMatchObject({ vertices: box(80, 200, 366, 240), area: 286 * 40, confidence: 97.3 });
    expect(detections[2]!.words!.map((w) => [w.text, w.confidence])).toEqual([
      ['Power', 99],
      ['12.5', 97],
      ['W', 96],
    ]);
    // Google leaves out zero coordinates: the word at the left edge still starts at x = 0.
    expect(detections[4]!.vertices).toEqual(box(0, 640, 224, 680));
    expect(words).toHaveLength(9);
    for (const d of detections) expect(detectionSchema.safeParse(d).success).toBe(true);
  });

  it('reads rotated text with the axis-aligned box around it, and never cuts a vertical line at its gaps', () => {
    const { detections } = readVisionText(visionFixture('rotated').fullTextAnnotation, { scale: 1, grouping: 'line' });
    expect(detections.map((d) => [d.text, d.vertices])).toEqual([
      ['NO ENTRY', box(430, 60, 470, 400)],
      ['Speed 88 km/h', box(40, 157, 288, 232)],
      ['SALE', box(196, 420, 300, 452)],
    ]);
  });

  it('groups a caption’s lines into one detection for translation, joining a word broken by a hyphen', () => {
    const lines = readVisionText(visionFixture('captions-fr').fullTextAnnotation, { scale: 1, grouping: 'line' }).detections;
    expect(lines.map((d) => d.text)).toEqual(['INFO RÉGION-', 'ALE', 'Je ne pense pas que nous', 'devrions y aller ce soir.']);
    const captions = readVisionText(visionFixture('captions-fr').fullTextAnnotation, { scale: 1, grouping: 'paragraph' }).detections;
    expect(captions.map((d) => [d.text, d.blockType])).toEqual([
      ['INFO RÉGIONALE', 'PARAGRAPH'],
      ['Je ne pense pas que nous devrions y aller ce soir.', 'PARAGRAPH'],
    ]);
    expect(captions[1]!.vertices).toEqual(box(380, 600, 852, 690));
    expect(captions[1]!.words).toHaveLength(11);
  });

  it('scales boxes back to the frame when the frame was sent downscaled', () => {
    const { detections } = readVisionText(visionFixture('dashboard').fullTextAnnotation, { scale: 2, grouping: 'line' });
    expect(detections[0]!.vertices).toEqual(box(160, 120, 524, 204));
    expect(detections[0]!.words![0]!.vertices).toEqual(box(160, 120, 524, 204));
  });

  it('finds nothing on a page without text', () => {
    expect(readVisionText(visionFixture('empty').fullTextAnnotation, { scale: 1, grouping: 'line' })).toEqual({ detections: [], words: [] });
    expect(readVisionText(undefined, { scale: 1, grouping: 'paragraph' })).toEqual({ detections: [], words: [] });
  });
});
