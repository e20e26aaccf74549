import { describe, expect, it } from 'vitest';
import { DEFAULT_VIEW, frameLabel, textFoundInView, viewFromDetails, viewFromLocal } from './model';
import { sampleDetails } from './testing';

describe('viewFromDetails', () => {
  it('takes each frame its image, time, text and boxes, and the details cards their values', () => {
    const view = viewFromDetails('u-1', sampleDetails());
    expect(view).toMatchObject({ uploadID: 'u-1', uploadName: 'Charger screen', processingType: 'Numerical', format: 'Video' });
    expect(view.uploadedAt?.toISOString()).toBe('2025-08-01T12:00:00.000Z');
    expect(view.frames.map((f) => [f.imageUrl, f.t, f.text])).toEqual([
      ['http://files.test/0000000000.jpg', 0, '42.5 kW'],
      ['http://files.test/0000005000.jpg', 5, 'SOC 81%'],
    ]);
    expect(view.frames[1]!.detections[0]!.vertices[0]).toEqual({ x: 110, y: 50 });
    expect(view).toMatchObject({ mediaContent: 'numerical', demo: false, local: false, hasConfidence: false, resultsUrl: null });
    expect(DEFAULT_VIEW[view.mediaContent]).toBe('numerical');
    expect(viewFromDetails('s', sampleDetails({ mediaContent: 'scroll' }))).toMatchObject({ processingType: 'Scroll' });
    expect(DEFAULT_VIEW.scroll).toBe('scroll');
  });

  it('falls back to the lines, then the detections, when a frame has no reading', () => {
    const details = sampleDetails({ isVideo: false, mediaContent: 'presentation' });
    details.results.ocrResults = undefined;
    details.results.linesByFrame = [[{ text: 'Title' }, { text: 'Bullet' }], []];
    const view = viewFromDetails('p', details);
    expect(view.format).toBe('Pictures');
    expect(view.processingType).toBe('Presentation');
    expect(view.frames.map((f) => f.text)).toEqual(['Title\nBullet', 'SOC 81%']);
  });

  it('uses createdAt when the upload time is missing', () => {
    const view = viewFromDetails('x', sampleDetails({ uploadedAt: null }));
    expect(view.uploadedAt?.toISOString()).toBe('2025-08-01T12:00:00.000Z');
  });
});

describe('textFoundInView and frameLabel', () => {
  it('counts the frames with text and their words, and labels frames by number and time', () => {
    const view = viewFromDetails('u-1', sampleDetails({}, ['', 'SOC 81%']));
    expect(textFoundInView(view)).toEqual({ frames: 2, framesWithText: 1, words: 2 });
    expect(frameLabel(view, 1)).toBe('Frame 2 (0:05)');
    // Frames half a second apart tell their times apart.
    const quick = sampleDetails();
    quick.results.ocrResults = quick.results.ocrResults!.map((r, i) => ({ ...r, t: 12 + i * 0.5 }));
    const fast = viewFromDetails('u-2', quick);
    expect([frameLabel(fast, 0), frameLabel(fast, 1)]).toEqual(['Frame 1 (0:12.0)', 'Frame 2 (0:12.5)']);
    expect(textFoundInView(viewFromDetails('u-1', sampleDetails({}, ['', ''])))).toEqual({ frames: 2, framesWithText: 0, words: 0 });
  });

  it('numbers pictures without times', () => {
    const view = viewFromDetails('p', sampleDetails({ isVideo: false }));
    expect(frameLabel(view, 0)).toBe('Picture 1');
  });

  it('reads a frame time from the file name when the server sent no reading', () => {
    const details = sampleDetails();
    details.results.ocrResults = undefined;
    expect(viewFromDetails('u', details).frames.map((f) => f.t)).toEqual([0, 5]);
  });
});

describe('viewFromLocal', () => {
  it('scales normalised word boxes to the OCR size and keeps the frame text', () => {
    const view = viewFromLocal({
      id: 'local-7',
      fileName: 'dash.mp4',
      uploadedAt: '2025-08-02T08:00:00.000Z',
      data: [
        { t: 2, text: 'Speed 88', thumb: 'data:image/jpeg;base64,AA', ocrW: 1000, ocrH: 500, words: [{ text: 'Speed', nbox: { x: 0.1, y: 0.2, w: 0.3, h: 0.1 }, conf: 91 }, { text: '88', nbox: [0.5, 0.5, 0.1, 0.1] }] },
      ],
    });
    expect(view).toMatchObject({ uploadID: 'local-7', uploadName: 'dash.mp4', format: 'Video', processingType: 'Numerical' });
    const frame = view.frames[0]!;
    expect(frame).toMatchObject({ text: 'Speed 88', t: 2, imageUrl: 'data:image/jpeg;base64,AA', space: { width: 1000, height: 500 } });
    expect(view.local).toBe(true);
    expect(view.hasConfidence).toBe(true);
    expect(frame.detections[0]).toMatchObject({ text: 'Speed', confidence: 91, area: 15000 });
    expect(frame.detections[0]!.vertices).toEqual([
      { x: 100, y: 100 },
      { x: 400, y: 100 },
      { x: 400, y: 150 },
      { x: 100, y: 150 },
    ]);
    expect(frame.detections[1]!.vertices[2]).toEqual({ x: 600, y: 300 });
  });

  it('reads the words of one run as one LINE block with its words, as the server engine gives them', () => {
    const view = viewFromLocal({
      id: 'local-8',
      data: [
        {
          t: 0,
          ocrW: 1000,
          ocrH: 500,
          words: [
            { text: 'Battery', nbox: { x: 0.1, y: 0.2, w: 0.2, h: 0.1 }, conf: 90, run: 0 },
            { text: '150', nbox: { x: 0.5, y: 0.2, w: 0.1, h: 0.1 }, conf: 80, run: 1 },
            { text: 'kW', nbox: { x: 0.62, y: 0.2, w: 0.08, h: 0.1 }, conf: 90, run: 1 },
          ],
        },
      ],
    });
    const [label, value] = view.frames[0]!.detections;
    expect(label).toMatchObject({ text: 'Battery', blockType: 'LINE', confidence: 90 });
    expect(value).toMatchObject({ text: '150 kW', blockType: 'LINE', confidence: 85, area: 10000 });
    expect(value!.vertices).toEqual([
      { x: 500, y: 100 },
      { x: 700, y: 100 },
      { x: 700, y: 150 },
      { x: 500, y: 150 },
    ]);
    expect(value!.words?.map((w) => w.text)).toEqual(['150', 'kW']);
  });
});
