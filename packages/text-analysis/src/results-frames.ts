import type { Detection, Line, UploadDetailsResponse } from '@frametext/contracts';
import { clockDecimals, formatClock, frameTimeFromUrl } from './time.js';

/*
 * The frames every results view reads, as the app builds them from the server's upload details (getUploadDetails),
 * and the labels the views and the exports give them. One implementation for the browser and the results service's
 * exports (GET /api/uploads/:id/export), so both read the same frames the same way.
 */

export interface ResultsFrame {
  index: number;
  imageUrl: string | null;
  /** Seconds from the start of the video (or the photo's place in the series); null when unknown. */
  t: number | null;
  /** The frame's text in reading order. */
  text: string;
  /** Text blocks with their corners in `space` coordinates (image pixels unless `space` says otherwise). */
  detections: Detection[];
  /** Readable lines (presentation); the detections' texts when the server sent no lines. */
  lines: Line[];
  /** Size of the space the vertices are in; null means the image's own pixel size. */
  space: { width: number; height: number } | null;
}

/** What the exports need to know of an upload: its id, name, whether it is a video, and its frames. */
export interface ResultsSource {
  uploadID: string;
  uploadName: string;
  format: 'Video' | 'Pictures';
  frames: ResultsFrame[];
  /** Digits after the second's point in frame times (m:ss.s when frames are under a second apart), as exports. */
  timeDecimals: number;
}

/** The frames of the server's answer of GET /getUploadDetails/:id, one per frame URL. */
export function framesFromDetails(details: UploadDetailsResponse): ResultsFrame[] {
  const { results, urls } = details;
  return urls.map((url, i): ResultsFrame => {
    const reading = results.ocrResults?.find((r) => r.fileIndex === i);
    const detections = results.results[i] ?? reading?.detections ?? [];
    const serverLines = results.linesByFrame?.[i];
    const lines = serverLines?.length ? serverLines : detections.map((d) => ({ text: d.text, vertices: d.vertices, confidence: d.confidence }));
    const text = reading?.text ?? lines.map((l) => l.text).join('\n');
    return { index: i, imageUrl: url, t: reading?.t ?? frameTimeFromUrl(url), text: text.trim(), detections, lines, space: null };
  });
}

/** The upload of the server's upload details as the exports read it. */
export function sourceFromDetails(uploadID: string, details: UploadDetailsResponse): ResultsSource {
  const frames = framesFromDetails(details);
  return {
    uploadID,
    uploadName: details.uploadData.uploadName,
    format: details.uploadData.isVideo ? 'Video' : 'Pictures',
    frames,
    timeDecimals: clockDecimals(frames.map((f) => f.t)),
  };
}

type Labelled = Pick<ResultsSource, 'format' | 'timeDecimals'> & { frames: readonly { t: number | null }[] };

/** A video frame's time as m:ss (m:ss.s when frames are under a second apart); null for photos or without a time. */
export function frameTime(source: Labelled, index: number): string | null {
  const t = source.frames[index]?.t;
  return t != null && source.format === 'Video' ? formatClock(t, source.timeDecimals) : null;
}

/** "Frame 3 (0:02)" for a video, "Picture 3" for photos. */
export function frameLabel(source: Labelled, index: number): string {
  const noun = source.format === 'Video' ? 'Frame' : 'Picture';
  const time = frameTime(source, index);
  return time === null ? `${noun} ${index + 1}` : `${noun} ${index + 1} (${time})`;
}

/** An upload's name as part of a file name: characters file systems refuse become '-'; `fallback` when nothing is left. */
export function fileNameBase(uploadName: string, fallback: string): string {
  return uploadName.replace(/[\\/:*?"<>|]+/g, '-').replace(/\p{Cc}+/gu, '').trim() || fallback;
}

/**
 * Every export's file name, in every view and from the API: the upload's name, then what the file holds, as in
 * "Charger run-results.csv". "upload" stands in for a name with nothing usable left.
 */
export function exportFileName(uploadName: string, what: string, ext: string): string {
  return `${fileNameBase(uploadName, 'upload')}-${what}.${ext}`;
}
