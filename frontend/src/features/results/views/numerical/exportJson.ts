import { NUMERICAL_EXPORT_FORMAT, NUMERICAL_EXPORT_VERSION, type NumericalExport } from '@frametext/contracts';
import { blockConfidence, boundsOf, clockDecimals, formatClock } from '@frametext/text-analysis';
import type { ResultsView } from '../../model';
import { seriesNumbers } from './chartData';
import type { ProofSeries } from './proofread';

/** The JSON export's file name: the upload's name, with characters file systems refuse as '-'. */
export function resultsJsonFileName(uploadName: string): string {
  const base = uploadName.replace(/[\\/:*?"<>|]+/g, '-').replace(/\p{Cc}+/gu, '').trim() || 'results';
  return `${base}-results.json`;
}

/**
 * The whole result for programs (schema: numericalExportSchema in @frametext/contracts, docs/exports.md): every
 * frame with its time and blocks (text, confidence, box), and the selected series with each frame's value as
 * corrected, the reading before correction, its confidence and why it looks unsure.
 */
export function numericalExport(view: ResultsView, proof: readonly ProofSeries[], exportedAt = new Date()): NumericalExport {
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
