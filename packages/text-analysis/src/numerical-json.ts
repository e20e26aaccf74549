import { NUMERICAL_EXPORT_FORMAT, NUMERICAL_EXPORT_VERSION, type NumericalExport } from '@frametext/contracts';
import { boundsOf } from './geometry.js';
import { parseValue } from './number-parsing.js';
import type { ProofSeries } from './numerical-corrections.js';
import { blockConfidence } from './numerical-proofreading.js';
import type { ResultsSource } from './results-frames.js';
import { clockDecimals, formatClock } from './time.js';

/** A series' values as numbers: seconds when most of its readings are times, otherwise each reading's number. */
export function seriesNumbers(values: readonly string[]): { isTime: boolean; ys: (number | null)[] } {
  const readings = values.map((v) => (v === '' ? null : parseValue(v)));
  const times = readings.filter((r) => r?.kind === 'time').length;
  const numbers = readings.filter((r) => r?.kind === 'number').length;
  const isTime = times > numbers;
  const ys = readings.map((r, i) => (r === null ? null : isTime ? (r.kind === 'time' ? r.value : null) : (parseValue(values[i]!, { times: false })?.value ?? null)));
  return { isTime, ys };
}


/**
 * The whole result for programs (schema: numericalExportSchema in @frametext/contracts, docs/exports.md): every
 * frame with its time and blocks (text, confidence, box), and the selected series with each frame's value as
 * corrected, the reading before correction, its confidence and why it looks unsure.
 */
export function numericalExport(view: Pick<ResultsSource, 'uploadID' | 'uploadName' | 'format' | 'frames'>, proof: readonly ProofSeries[], exportedAt = new Date()): NumericalExport {
  const decimals = clockDecimals(view.frames.map((f) => f.t));
  const round = (v: number) => Math.round(v * 100) / 100;
  return {
    format: NUMERICAL_EXPORT_FORMAT,
    version: NUMERICAL_EXPORT_VERSION,
    exportedAt: exportedAt.toISOString(),
    upload: { id: view.uploadID, name: view.uploadName, kind: view.format },
    frames: view.frames.map((frame, i) => ({
      frame: i + 1,
      time: frame.t,
      clock: formatClock(frame.t, decimals),
      blocks: frame.detections.map((d) => {
        const box = boundsOf(d.vertices);
        return {
          text: d.text,
          originalText: d.originalText ?? null,
          confidence: blockConfidence(d),
          box: { x: round(box.x), y: round(box.y), width: round(box.w), height: round(box.h) },
        };
      }),
    })),
    series: proof.map((p) => {
      const { isTime, ys } = seriesNumbers(p.series.values);
      return {
        id: p.id,
        name: p.series.name,
        unit: p.series.unit,
        isTime,
        cells: p.series.values.map((value, frame) => {
          const present = p.row.indexByFrame.has(frame) || p.corrected[frame] === true;
          return {
            frame: frame + 1,
            value: present ? value : null,
            number: present ? (ys[frame] ?? null) : null,
            reading: p.row.indexByFrame.has(frame) ? (p.readings[frame] ?? '') : null,
            confidence: p.confidences[frame] ?? null,
            corrected: p.corrected[frame] ?? false,
            unsure: [...(p.reasons[frame] ?? [])],
          };
        }),
      };
    }),
  };
}

/** The JSON export's text as the app saves it: two-space indents and a final line end. */
export const numericalJson = (exported: NumericalExport) => `${JSON.stringify(exported, null, 2)}\n`;
