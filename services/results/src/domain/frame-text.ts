import type { Detection, Line, MaxValues, MediaContent, OcrFrameResult, Vertex } from '@frametext/contracts';
import { clockDecimals, earlierBuilds, formatClock, normaliseBullets, rectVertices } from '@frametext/text-analysis';

/*
 * Pure building blocks of an upload's results: rows of text from a frame's detections, the upload-wide
 * maxima the viewers scale their sliders with, the per-frame reading form, and the presentation text file.
 */

/** Rows are grouped with a tolerance of this share of the frame's average block height (results spec section 9)... */
export const ROW_TOLERANCE_FACTOR = 0.6;
/** ...and never less than this many pixels, so that tiny blocks still join their row. */
export const MIN_ROW_TOLERANCE_PX = 6;

interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

function boxOf(vertices: readonly Vertex[]): Box {
  const xs = vertices.map((v) => v.x);
  const ys = vertices.map((v) => v.y);
  return { minX: Math.min(...xs), minY: Math.min(...ys), maxX: Math.max(...xs), maxY: Math.max(...ys) };
}

interface Block {
  detection: Detection;
  box: Box;
  centerY: number;
}

interface Row {
  blocks: Block[];
  centerY: number;
}

/**
 * Groups a frame's detections into lines by row: a block joins the row whose running centre is within the
 * tolerance of its own centre (0.6 x the average block height, at least 6 px); rows read top to bottom and
 * blocks within a row left to right. Blocks without text are left out.
 */
export function groupLines(detections: readonly Detection[]): Line[] {
  const blocks: Block[] = detections
    .filter((d) => d.text.trim() !== '')
    .map((detection) => {
      const box = boxOf(detection.vertices);
      return { detection, box, centerY: (box.minY + box.maxY) / 2 };
    });
  if (blocks.length === 0) return [];

  const averageHeight = blocks.reduce((sum, b) => sum + (b.box.maxY - b.box.minY), 0) / blocks.length;
  const tolerance = Math.max(MIN_ROW_TOLERANCE_PX, ROW_TOLERANCE_FACTOR * averageHeight);

  const rows: Row[] = [];
  for (const block of [...blocks].sort((a, b) => a.centerY - b.centerY || a.box.minX - b.box.minX)) {
    const row = rows.find((r) => Math.abs(r.centerY - block.centerY) <= tolerance);
    if (row) {
      row.blocks.push(block);
      row.centerY = row.blocks.reduce((sum, b) => sum + b.centerY, 0) / row.blocks.length;
    } else {
      rows.push({ blocks: [block], centerY: block.centerY });
    }
  }

  return rows
    .sort((a, b) => a.centerY - b.centerY)
    .map((row) => {
      const ordered = [...row.blocks].sort((a, b) => a.box.minX - b.box.minX);
      const box = ordered.reduce<Box>(
        (acc, b) => ({
          minX: Math.min(acc.minX, b.box.minX),
          minY: Math.min(acc.minY, b.box.minY),
          maxX: Math.max(acc.maxX, b.box.maxX),
          maxY: Math.max(acc.maxY, b.box.maxY),
        }),
        { ...ordered[0]!.box },
      );
      const confidences = ordered.map((b) => b.detection.confidence).filter((c): c is number => c !== undefined);
      const line: Line = {
        text: ordered.map((b) => b.detection.text.trim()).join(' '),
        vertices: rectVertices({ left: box.minX, top: box.minY, right: box.maxX, bottom: box.maxY }),
      };
      if (confidences.length > 0) line.confidence = round2(confidences.reduce((s, c) => s + c, 0) / confidences.length);
      return line;
    });
}

/** Upload-wide maxima: longest detection text, largest block area, most detections and most lines on one frame. */
export function computeMaxValues(frames: readonly (readonly Detection[])[], linesByFrame: readonly (readonly Line[])[]): MaxValues {
  let maxTextLength = 0;
  let maxArea = 0;
  let maxDetections = 0;
  for (const detections of frames) {
    maxDetections = Math.max(maxDetections, detections.length);
    for (const d of detections) {
      maxTextLength = Math.max(maxTextLength, d.text.length);
      maxArea = Math.max(maxArea, d.area);
    }
  }
  const maxLines = linesByFrame.reduce((m, lines) => Math.max(m, lines.length), 0);
  return { maxTextLength, maxArea, maxDetections, maxLines };
}

export interface FrameForResults {
  timestampMs: number;
  detections: Detection[];
}

/** One reading entry per frame, in frame order: its time in seconds, its index in `urls`, its text line by line. */
export function buildOcrResults(frames: readonly FrameForResults[], linesByFrame: readonly (readonly Line[])[]): OcrFrameResult[] {
  return frames.map((frame, fileIndex) => ({
    t: frame.timestampMs / 1000,
    fileIndex,
    text: (linesByFrame[fileIndex] ?? []).map((l) => l.text).join('\n'),
    detections: frame.detections,
  }));
}

export interface UploadResultsBuilt {
  results: Detection[][];
  linesByFrame: Line[][];
  maxValues: MaxValues;
  ocrResults: OcrFrameResult[];
  processingType: MediaContent;
}

/** Everything the details endpoints answer, from the frames in frame order. */
export function buildUploadResults(frames: readonly FrameForResults[], processingType: MediaContent): UploadResultsBuilt {
  const results = frames.map((f) => f.detections);
  const linesByFrame = results.map(groupLines);
  return {
    results,
    linesByFrame,
    maxValues: computeMaxValues(results, linesByFrame),
    ocrResults: buildOcrResults(frames, linesByFrame),
    processingType,
  };
}

/** A frame's lines as the Presentation text shows them: trimmed, no blank ones, bullets written `•`. */
export function presentationLines(text: string): string[] {
  return normaliseBullets(text.split('\n').map((l) => l.trim()).filter(Boolean));
}

/**
 * The presentation text file: one section per slide, its fullest build. A frame that the next frame builds on
 * (its words, and more) is left out, so a slide that shows its bullets one at a time appears once, whole. Each
 * section is headed by the slide's number and its frame's time, its lines below (bullets written `•`), with a
 * blank line between; a slide without text says so.
 */
export function presentationText(ocrResults: readonly OcrFrameResult[]): string {
  const lines = ocrResults.map((r) => presentationLines(r.text));
  const builds = earlierBuilds(lines.map((l) => l.join('\n')));
  // m:ss, or m:ss.s when frames are under a second apart: the times the results page and every other export show.
  const decimals = clockDecimals(ocrResults.map((r) => r.t));
  const slides = ocrResults.flatMap((r, i) => (builds[i] ? [] : [{ t: r.t, body: lines[i]! }]));
  const sections = slides.map(({ t, body }, n) => `Slide ${n + 1} (${formatClock(t, decimals)})\n${body.length ? body.join('\n') : '(no text found)'}`);
  return `${sections.join('\n\n')}\n`;
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}
