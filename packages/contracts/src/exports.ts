import { z } from 'zod';
import { KEPT_WORK_VIEWS, type KeptWorkView } from './kept-work.js';
import type { MediaContent } from './rules.js';

/*
 * GET /api/uploads/:id/export: a results view's download (the file the app's export button saves) for scripts.
 * Which formats each view offers, the view an upload's mode opens in, and each format's Content-Type.
 */

export const EXPORT_FORMATS = ['csv', 'txt', 'srt', 'vtt', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The files each view's buttons save (the results service's table of each view's files is typed by these lists). */
export const VIEW_EXPORT_FORMATS = {
  presentation: ['txt'],
  numerical: ['csv', 'txt', 'json'],
  region: ['csv', 'txt', 'srt', 'vtt'],
  scroll: ['csv', 'txt'],
} as const satisfies Record<KeptWorkView, readonly ExportFormat[]>;

/** The formats view V offers. */
export type ViewExportFormat<V extends KeptWorkView> = (typeof VIEW_EXPORT_FORMATS)[V][number];

/** The view an upload opens in: the one made for its media content (the Region view reads captions). */
export const VIEW_OF_MEDIA_CONTENT: Record<MediaContent, KeptWorkView> = { numerical: 'numerical', captions: 'region', presentation: 'presentation', scroll: 'scroll' };

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  srt: 'application/x-subrip',
  vtt: 'text/vtt',
  json: 'application/json',
};

/**
 * What the export endpoint takes: the views' formats, and `gvi`, any upload's text in Google Video Intelligence's
 * shape (AnnotateVideoResponse; docs/video-intelligence.md), whatever the view.
 */
export const EXPORT_QUERY_FORMATS = [...EXPORT_FORMATS, 'gvi'] as const;
export type ExportQueryFormat = (typeof EXPORT_QUERY_FORMATS)[number];

export const exportFormatSchema = z.enum(EXPORT_QUERY_FORMATS, { error: `format must be one of ${EXPORT_QUERY_FORMATS.join(', ')}` });
export const exportViewSchema = z.enum(KEPT_WORK_VIEWS, { error: `view must be one of ${KEPT_WORK_VIEWS.join(', ')}` });

export const exportQuerySchema = z.object({
  format: exportFormatSchema.describe('The file: csv, txt, srt, vtt or json (each view offers some of them), or gvi: the text in Google Video Intelligence\'s JSON, for any upload.'),
  view: exportViewSchema
    .optional()
    .describe("The results view whose file this is; by default the one the upload's mode opens in (numerical: numerical, captions: region, presentation, scroll)."),
});
export type ExportQuery = z.infer<typeof exportQuerySchema>;
