import { numericalExportSchema } from '@frametext/contracts';
import { describe, expect, it } from 'vitest';
import { viewFromDetails } from '../../model';
import { sampleDetails } from '../../testing';
import { correctionsReducer, noCorrections, numericalExport, numericalFileName, proofSeries, seriesOf } from '@frametext/text-analysis';
import { emptySelection, selectionReducer } from './selection';

describe('JSON export', () => {
  // Two frames: "42.5 kW", then "SOC 81%", each a block of its own track.
  const view = viewFromDetails('up-1', sampleDetails({}, ['42.5 kW', '40.1 kW']));
  const detections = view.frames.map((f) => f.detections);
  const track = { id: 'block-1-1', points: [0, 1].map((frame) => ({ frame, index: 0 })) };
  const selection = selectionReducer(emptySelection, { type: 'added', id: track.id, seriesName: 'Power', uniqueID: 1500 });
  const rows = [seriesOf(detections, selection.blocks[0]!, new Map([[track.id, track]]))];
  const corrections = correctionsReducer(noCorrections, { type: 'corrected', seriesId: 1500, frame: 1, value: '40.7 kW' });
  const exported = numericalExport(view, proofSeries(detections, rows, corrections), new Date('2026-01-02T03:04:05Z'));

  it('matches its schema, survives JSON, and carries the version', () => {
    const parsed = numericalExportSchema.parse(JSON.parse(JSON.stringify(exported)));
    expect(parsed.format).toBe('frametext.numerical');
    expect(parsed.version).toBe(1);
    expect(parsed.upload).toEqual({ id: 'up-1', name: 'Charger screen', kind: 'Video' });
  });

  it('holds every frame with its time, blocks, boxes and confidence, and the series as corrected', () => {
    expect(exported.frames).toEqual([
      { frame: 1, time: 0, clock: '0:00', blocks: [{ text: '42.5 kW', originalText: null, confidence: null, box: { x: 100, y: 50, width: 200, height: 40 } }] },
      { frame: 2, time: 5, clock: '0:05', blocks: [{ text: '40.1 kW', originalText: null, confidence: null, box: { x: 110, y: 50, width: 200, height: 40 } }] },
    ]);
    expect(exported.series).toEqual([
      {
        id: 1500,
        name: 'Power',
        unit: 'kW',
        isTime: false,
        cells: [
          { frame: 1, value: '42.5 kW', number: 42.5, reading: '42.5 kW', confidence: null, corrected: false, unsure: [] },
          { frame: 2, value: '40.7 kW', number: 40.7, reading: '40.1 kW', confidence: null, corrected: true, unsure: [] },
        ],
      },
    ]);
  });

  it('is refused by the schema when a field is wrong, so the test above can fail', () => {
    expect(numericalExportSchema.safeParse({ ...exported, version: 2 }).success).toBe(false);
    expect(numericalExportSchema.safeParse({ ...exported, frames: [{ ...exported.frames[0], frame: 0 }] }).success).toBe(false);
  });

  it('is named after the upload', () => {
    expect(numericalFileName('Charger: evening', 'json')).toBe('Charger- evening-results.json');
  });
});
