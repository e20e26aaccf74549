import { EXPORT_CONTENT_TYPES, VIEW_EXPORT_FORMATS, VIEW_OF_MEDIA_CONTENT, type ExportFormat, type ExportQuery, type KeptWorkView, type ViewExportFormat } from '@frametext/contracts';
import { badRequest, conflict } from '@frametext/service-kit';
import {
  exportFileName,
  hasAnyLine,
  keptNumericalSeries,
  keptRegionReading,
  keptScrollList,
  keptSlidesSelection,
  numericalCsv,
  numericalTxt,
  numericalExport,
  numericalFileName,
  numericalJson,
  regionCsv,
  regionFileName,
  regionTxt,
  scrollListFile,
  selectedSlidesFileName,
  selectedSlidesText,
  sourceFromDetails,
  subtitleFileName,
  toSrt,
  toVtt,
  type FrameSpace,
  type ProofSeries,
  type ResultsSource,
} from '@frametext/text-analysis';
import { findKeptWork } from '../data/kept-work.js';
import { framesOf, type FrameRow, type UploadRow } from '../data/uploads.js';
import type { ResultsContext } from './context.js';
import { uploadDetails, visibleUpload } from './uploads.js';
import { annotationResponse } from './video-annotation.js';

/*
 * GET /api/uploads/:id/export: the file a results view's export button saves, for scripts. The same
 * builders as the app (@frametext/text-analysis) on the same frames (the upload details the app reads) and the
 * person's kept work for the view; without kept work, what the view shows when first opened. Numerical with no
 * series selected exports the series one click on Find the numbers adds.
 */

export interface ExportFile {
  fileName: string;
  contentType: string;
  body: string;
}

interface ExportInput {
  source: ResultsSource;
  /** The person's kept work for the view (null when none is kept). */
  kept: unknown;
  format: ExportFormat;
  /** Each frame's pixel size, as the app reads it from the pictures (Region boxes are placed with it). */
  spaceOf: (index: number) => FrameSpace | null;
}

const nothing = (message: string) => conflict('export/empty', message);

type FileBody = Omit<ExportFile, 'contentType'>;

/** The Numerical view's files by format (its formats are VIEW_EXPORT_FORMATS.numerical: the type asks for each). */
const exportFrames = (source: ResultsSource) => source.frames.map((f) => ({ t: f.t }));

const NUMERICAL_FILES: Record<ViewExportFormat<'numerical'>, (source: ResultsSource, proof: readonly ProofSeries[]) => FileBody> = {
  csv: (source, proof) => ({
    fileName: numericalFileName(source.uploadName, 'csv'),
    body: numericalCsv(exportFrames(source), proof.map((p) => p.series)),
  }),
  txt: (source, proof) => ({
    fileName: numericalFileName(source.uploadName, 'txt'),
    body: numericalTxt(exportFrames(source), proof.map((p) => p.series)),
  }),
  json: (source, proof) => ({ fileName: numericalFileName(source.uploadName, 'json'), body: numericalJson(numericalExport(source, proof)) }),
};

function numericalFile({ source, kept, format }: ExportInput): FileBody {
  const proof = keptNumericalSeries(
    source.frames.map((f) => f.detections),
    kept,
  );
  if (proof.length === 0) {
    throw nothing('No series to export: no series is selected in the Numerical view and Find the numbers finds no number that changes over the video. Pick blocks in the app, then export again.');
  }
  return NUMERICAL_FILES[format as ViewExportFormat<'numerical'>](source, proof);
}

function regionFile({ source, kept, format, spaceOf }: ExportInput): FileBody {
  const { boxes, readings, cues } = keptRegionReading(source.frames, spaceOf, kept);
  if (boxes.length === 0 || !hasAnyLine(readings)) {
    throw nothing('No text lies wholly inside the Region view\'s boxes: move or resize them over the text in the app, then export again.');
  }
  const names = boxes.map((b) => b.name);
  if (format === 'csv') return { fileName: regionFileName(source.uploadName, 'csv'), body: regionCsv(names, readings) };
  if (format === 'txt') return { fileName: regionFileName(source.uploadName, 'txt'), body: regionTxt(names, cues) };
  // Subtitles come from the first box, as the app's "Subtitles from" list starts.
  const own = cues[0] ?? [];
  const ext = format === 'srt' ? 'srt' : 'vtt';
  return { fileName: subtitleFileName(source.uploadName, boxes[0]!.name, ext), body: ext === 'srt' ? toSrt(own) : toVtt(own) };
}

function presentationFile({ source, kept }: ExportInput): FileBody {
  const selected = keptSlidesSelection(source.frames, kept);
  if (!selected.some(Boolean)) throw nothing('No frame is selected in the Presentation view: select frames in the app, then export again.');
  return { fileName: selectedSlidesFileName(source.uploadName), body: selectedSlidesText(source, selected) };
}

function scrollFile({ source, kept, format }: ExportInput): FileBody {
  const list = keptScrollList(source.frames, kept);
  if (!list) throw nothing('The Scroll view has no locked template yet: box one list item in the app and press Lock Template, then export again.');
  if (list.items.length === 0) throw nothing('No item matches the Scroll view\'s template: adjust the template or its settings in the app, then export again.');
  const file = scrollListFile(source, list, format === 'csv' ? 'csv' : 'txt');
  return { fileName: file.fileName, body: file.text };
}

const BUILDERS: Record<KeptWorkView, (input: ExportInput) => FileBody> = {
  numerical: numericalFile,
  region: regionFile,
  presentation: presentationFile,
  scroll: scrollFile,
};

/**
 * Each frame's size as the app knows it: a video's pictures all have the first one's size (the app reads only the
 * first); each photo its own.
 */
function frameSpaces(upload: UploadRow, rows: readonly FrameRow[]): (index: number) => FrameSpace | null {
  const sizeOf = (row: FrameRow | undefined): FrameSpace | null => (row?.image_width && row.image_height ? { width: row.image_width, height: row.image_height } : null);
  const first = sizeOf(rows[0]);
  return upload.kind === 'photos' ? (i) => sizeOf(rows[i]) : () => first;
}

function checkFormat(view: KeptWorkView, format: ExportFormat): void {
  const offered: readonly ExportFormat[] = VIEW_EXPORT_FORMATS[view];
  if (!offered.includes(format)) {
    throw badRequest('export/format-not-offered', `The ${view} view does not export ${format}; it exports ${offered.join(', ')}.`, { view, formats: offered });
  }
}

/** Any upload's text as Google Video Intelligence's AnnotateVideoResponse, whatever the view (docs/video-intelligence.md). */
async function videoIntelligenceFile(ctx: ResultsContext, userId: string, uploadId: string): Promise<ExportFile> {
  const upload = await visibleUpload(ctx, { userId }, uploadId);
  const response = await annotationResponse(ctx, userId, uploadId);
  return { fileName: exportFileName(upload.upload_name ?? '', 'video-intelligence', 'json'), contentType: 'application/json', body: `${JSON.stringify(response, null, 2)}\n` };
}

export async function exportUpload(ctx: ResultsContext, userId: string, uploadId: string, query: ExportQuery): Promise<ExportFile> {
  if (query.format === 'gvi') return videoIntelligenceFile(ctx, userId, uploadId);
  const upload = await visibleUpload(ctx, { userId }, uploadId);
  const view = query.view ?? VIEW_OF_MEDIA_CONTENT[upload.media_content ?? 'numerical'];
  const format: ExportFormat = query.format;
  checkFormat(view, format);
  if (upload.status === 'failed') throw conflict('results/failed', `Results are not available: ${upload.failure_reason ?? 'processing failed.'}`);
  if (upload.status !== 'processed') {
    throw conflict('export/not-ready', `This upload is still processing (status: ${upload.status}); export it once GET /api/checkUploadStatus/${uploadId} says processed.`);
  }
  const [details, rows, work] = await Promise.all([
    uploadDetails(ctx, { userId }, uploadId),
    framesOf(ctx.db, uploadId, upload.frames_total),
    findKeptWork(ctx.db, { uploadId, userId, view }),
  ]);
  const input: ExportInput = { source: sourceFromDetails(uploadId, details), kept: work?.document ?? null, format, spaceOf: frameSpaces(upload, rows) };
  return { ...BUILDERS[view](input), contentType: EXPORT_CONTENT_TYPES[format] };
}

/**
 * `attachment; filename="<name>"`; a name beyond ASCII also gets `filename*` (RFC 6266) with its UTF-8, and its
 * other characters as '_' in the plain one.
 */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return ascii === fileName ? `attachment; filename="${fileName}"` : `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
