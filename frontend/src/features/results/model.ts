import { VIEW_OF_MEDIA_CONTENT, textFoundIn, type Detection, type Engine, type MediaContent, type TextFound, type UploadDetailsResponse } from '@frametext/contracts';
import { clockDecimals, frameLabel, frameTime, rectVertices, sourceFromDetails, type ResultsFrame } from '@frametext/text-analysis';
import type { LocalRecord, LocalWord } from '../../lib/localRecords';

/*
 * The one shape every results view reads, built from the server's upload details, the demo, or a local record
 * from the browser's database. Pure functions, tested beside this file.
 */

export type { ResultsFrame };

export type ViewName = 'presentation' | 'numerical' | 'region' | 'scroll';

export interface ResultsView {
  uploadID: string;
  uploadName: string;
  uploadedAt: Date | null;
  mediaContent: MediaContent;
  processingType: string;
  format: 'Video' | 'Pictures';
  frames: ResultsFrame[];
  /** Address of the upload's results file (presentation: its plain text), when it has one. */
  resultsUrl: string | null;
  /** True for /demo: the how-to opens by itself and the back link goes home. */
  demo: boolean;
  /** True for local- runs read from the browser's database. */
  local: boolean;
  /** Digits after the second's point in frame times (m:ss.s when frames are under a second apart), as exports. */
  timeDecimals: number;
  /** True when any detection carries a confidence (the Required Confidence slider shows only then). */
  hasConfidence: boolean;
  /** The engine that read it (the advice when almost no text was found). */
  engine?: Engine;
}

const PROCESSING_TYPES: Record<MediaContent, string> = { numerical: 'Numerical', captions: 'Region (captions)', presentation: 'Presentation', scroll: 'Scroll' };

/** The tab a view opens on: the one made for the upload's media content. */
export const DEFAULT_VIEW: Record<MediaContent, ViewName> = VIEW_OF_MEDIA_CONTENT;

function validDate(value: Date): Date | null {
  return Number.isNaN(value.getTime()) ? null : value;
}

const anyConfidence = (frames: ResultsFrame[]) => frames.some((f) => f.detections.some((d) => d.confidence !== undefined));

/** The server's answer of GET /getUploadDetails/:id (or the demo's). */
export function viewFromDetails(uploadID: string, details: UploadDetailsResponse, options: { demo?: boolean } = {}): ResultsView {
  const { uploadData, results } = details;
  const uploadedAt = uploadData.uploadedAt ? new Date(uploadData.uploadedAt) : new Date(uploadData.createdAt._seconds * 1000);
  const source = sourceFromDetails(uploadID, details);
  return {
    ...source,
    uploadedAt: validDate(uploadedAt),
    mediaContent: uploadData.mediaContent,
    processingType: PROCESSING_TYPES[uploadData.mediaContent] ?? uploadData.mediaContent,
    resultsUrl: results.resultsUrl ?? null,
    demo: options.demo ?? false,
    local: false,
    hasConfidence: anyConfidence(source.frames),
    engine: uploadData.ocrType,
  };
}

function wordBox(word: LocalWord, width: number, height: number) {
  const [x, y, w, h] = Array.isArray(word.nbox) ? word.nbox : [word.nbox.x, word.nbox.y, word.nbox.w, word.nbox.h];
  // Hundredths of a pixel are plenty, and keep float noise (0.1 + 0.3 = 0.4000000000000001) out of the points.
  const px = (v: number) => Math.round(v * 100) / 100;
  return { left: px(x * width), top: px(y * height), right: px((x + w) * width), bottom: px((y + h) * height) };
}

/**
 * The detections of a local frame, shaped as the Basic engine shapes its own: one LINE block per run of words
 * (a line cut at wide gaps), with its words, their union box and mean confidence. Words saved without a run
 * (older records) are a block each.
 */
function localDetections(words: LocalWord[], width: number, height: number): Detection[] {
  const groups = new Map<string, LocalWord[]>();
  words.forEach((w, i) => {
    const key = w.run === undefined ? `w${i}` : `r${w.run}`;
    groups.set(key, [...(groups.get(key) ?? []), w]);
  });
  return [...groups.values()].map((group) => {
    const boxes = group.map((w) => wordBox(w, width, height));
    const box = {
      left: Math.min(...boxes.map((b) => b.left)),
      top: Math.min(...boxes.map((b) => b.top)),
      right: Math.max(...boxes.map((b) => b.right)),
      bottom: Math.max(...boxes.map((b) => b.bottom)),
    };
    const confs = group.map((w) => w.conf).filter((c): c is number => c !== undefined);
    const confidence = confs.length ? Math.round((confs.reduce((a, c) => a + c, 0) / confs.length) * 10) / 10 : undefined;
    return {
      text: group.map((w) => w.text).join(' '),
      vertices: rectVertices(box),
      area: Math.round((box.right - box.left) * (box.bottom - box.top) * 100) / 100,
      ...(confidence !== undefined ? { confidence } : {}),
      blockType: group.length === 1 && group[0]!.run === undefined ? 'WORD' : 'LINE',
      ...(group.length > 1 || group[0]!.run !== undefined
        ? { words: group.map((w, i) => ({ text: w.text, vertices: rectVertices(boxes[i]!), ...(w.conf !== undefined ? { confidence: w.conf } : {}) })) }
        : {}),
    };
  });
}

/** A local record: its boxes are normalised, so they are placed in the OCR size (or a unit square). */
export function viewFromLocal(record: LocalRecord): ResultsView {
  const frames = (record.data ?? []).map((frame, index): ResultsFrame => {
    const width = frame.ocrW && frame.ocrW > 0 ? frame.ocrW : 1;
    const height = frame.ocrH && frame.ocrH > 0 ? frame.ocrH : 1;
    const words = (frame.words ?? []).filter((w) => w.text?.trim() && w.nbox);
    const detections = localDetections(words, width, height);
    const text = (frame.text ?? words.map((w) => w.text).join(' ')).trim();
    return {
      index,
      imageUrl: frame.thumb ?? null,
      t: Number.isFinite(frame.t) ? frame.t : null,
      text,
      detections,
      lines: text ? text.split('\n').map((l) => ({ text: l })) : [],
      space: { width, height },
    };
  });
  const uploadedAt = record.uploadedAt === undefined ? null : validDate(new Date(record.uploadedAt));
  return {
    uploadID: record.id,
    uploadName: record.fileName || record.id,
    uploadedAt,
    mediaContent: 'numerical',
    processingType: PROCESSING_TYPES.numerical,
    format: 'Video',
    frames,
    resultsUrl: null,
    demo: false,
    local: true,
    timeDecimals: clockDecimals(frames.map((f) => f.t)),
    hasConfidence: anyConfidence(frames),
    engine: 'local',
  };
}

/** What the reading found, counted from each frame's text (its blocks' text where the frame has no text of its own). */
export const textFoundInView = (view: ResultsView): TextFound =>
  textFoundIn(view.frames.map((f) => (f.text.trim() ? f.text : f.detections.map((d) => d.text).join(' '))));

export { frameLabel, frameTime };
