import { describe, expect, it } from 'vitest';
import { textAnnotationSchema } from '@frametext/contracts';
import { rectVertices, type TextBlock } from './geometry.js';
import { durationJson, videoTextAnnotations, type AnnotatedFrame } from './video-text-annotations.js';

const SIZE = { width: 1000, height: 500 };
const block = (text: string, x: number, y: number, confidence = 90): TextBlock => ({ text, vertices: rectVertices({ x, y, w: 200, h: 40 }), confidence });
const frames = (...blocks: TextBlock[][]): AnnotatedFrame[] => blocks.map((detections, i) => ({ t: i, detections, size: SIZE }));

describe('video text annotations', () => {
  it('writes durations as proto3 JSON does', () => {
    expect([durationJson(0), durationJson(3), durationJson(1.5), durationJson(0.04), durationJson(12.3456)]).toEqual(['0s', '3s', '1.500s', '0.040s', '12.346s']);
  });

  it('makes a text on screen for 3 s one annotation with one segment spanning it, boxes normalised by the frame size', () => {
    const title = block('Hello world', 100, 50, 80);
    const result = videoTextAnnotations(frames([], [title], [{ ...title, confidence: 95 }], [title], []), { intervalSeconds: 1, durationSeconds: 5 });
    expect(result).toHaveLength(1);
    expect(result[0]!.text).toBe('Hello world');
    expect(result[0]!.segments).toHaveLength(1);
    const [segment] = result[0]!.segments;
    expect(segment!.segment).toEqual({ startTimeOffset: '1s', endTimeOffset: '4s' });
    expect(segment!.confidence).toBe(0.95);
    expect(segment!.frames.map((f) => f.timeOffset)).toEqual(['1s', '2s', '3s']);
    expect(segment!.frames[0]!.rotatedBoundingBox!.vertices).toEqual([
      { x: 0.1, y: 0.1 },
      { x: 0.3, y: 0.1 },
      { x: 0.3, y: 0.18 },
      { x: 0.1, y: 0.18 },
    ]);
    for (const a of result) textAnnotationSchema.parse(a);
  });

  it('ends a segment that lasts to the last frame at the end of the video', () => {
    const result = videoTextAnnotations(frames([], [block('Bye', 10, 10)]), { intervalSeconds: 1, durationSeconds: 2.5 });
    expect(result[0]!.segments[0]!.segment).toEqual({ startTimeOffset: '1s', endTimeOffset: '2.500s' });
  });

  it('cuts a track where its number or its text changes, and gathers the segments of one text', () => {
    const result = videoTextAnnotations(
      frames(
        [block('20%', 500, 100), block('Agenda', 100, 300)],
        [block('20%', 500, 100), block('Agenda', 100, 300)],
        [block('21%', 500, 100), block('Results', 100, 300)],
        [block('20%', 500, 100)],
      ),
      { intervalSeconds: 1, durationSeconds: 4 },
    );
    const spans = Object.fromEntries(result.map((a) => [a.text, a.segments.map((s) => [s.segment.startTimeOffset, s.segment.endTimeOffset])]));
    expect(spans).toEqual({
      '20%': [
        ['0s', '2s'],
        ['3s', '4s'],
      ],
      Agenda: [['0s', '2s']],
      '21%': [['2s', '3s']],
      Results: [['2s', '3s']],
    });
    // First appearance, then top to bottom.
    expect(result.map((a) => a.text)).toEqual(['20%', 'Agenda', '21%', 'Results']);
  });

  it('names a segment after the reading most of its frames give', () => {
    const result = videoTextAnnotations(frames([block('Welcome home', 100, 100)], [block('Welcorne home', 100, 100)], [block('Welcome home', 100, 100)]), { intervalSeconds: 1 });
    expect(result.map((a) => a.text)).toEqual(['Welcome home']);
    expect(result[0]!.segments[0]!.frames).toHaveLength(3);
    expect(result[0]!.segments[0]!.segment.endTimeOffset).toBe('3s');
  });

  it('gives no box where the frame size is unknown, and times frames without one by their place', () => {
    const result = videoTextAnnotations([{ t: null, detections: [block('Photo', 0, 0)], size: null }], { intervalSeconds: 2 });
    expect(result[0]!.segments[0]!.frames).toEqual([{ timeOffset: '0s' }]);
    expect(result[0]!.segments[0]!.segment.endTimeOffset).toBe('2s');
  });
});
