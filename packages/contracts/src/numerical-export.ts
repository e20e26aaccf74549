import { z } from 'zod';

/*
 * The Numerical view's JSON export (`<upload>-results.json`): the whole result for programs, the frames with every
 * text block the OCR read (text, confidence, box) and the selected series with each frame's value, as corrected.
 * docs/exports.md holds its JSON Schema, generated from this one (a test keeps the two alike). A change that would
 * break a reader of version 1 raises `version`.
 */

export const NUMERICAL_EXPORT_FORMAT = 'frametext.numerical';
export const NUMERICAL_EXPORT_VERSION = 1;

const confidence = z.number().min(0).max(100).nullable().describe('percent, 0 to 100; null when the engine gave none');

/** A box in the frame image's pixels: left, top, width, height. */
export const exportBoxSchema = z
  .object({ x: z.number(), y: z.number(), width: z.number().nonnegative(), height: z.number().nonnegative() })
  .describe("the block's bounding box in the frame image's pixels");

export const exportBlockSchema = z.object({
  text: z.string(),
  originalText: z.string().nullable().describe('the text before translation, or null when not translated'),
  confidence,
  box: exportBoxSchema,
});

export const exportFrameSchema = z.object({
  frame: z.number().int().min(1).describe('1-based frame number, as the tables and the CSV show it'),
  time: z.number().nonnegative().nullable().describe('seconds from the start of the video; null when unknown'),
  clock: z.string().describe('the time as the tables show it (m:ss, m:ss.s when frames are under a second apart)'),
  blocks: z.array(exportBlockSchema),
});

export const exportCellSchema = z.object({
  frame: z.number().int().min(1),
  value: z.string().nullable().describe('the cleaned value, or the correction; null where the block is not on the frame'),
  number: z.number().nullable().describe('the value read as a number (seconds for times), null when it is not one'),
  reading: z.string().nullable().describe('the cleaned value as the OCR read it, before any correction'),
  confidence,
  corrected: z.boolean().describe('true when a person typed the value'),
  unsure: z.array(z.string()).describe('why the value looks unsure (low confidence, a jump or a value far off the others, a letter in a number, a blank between two values); empty when sure'),
});

export const exportSeriesSchema = z.object({
  id: z.number().int().describe("the series' identity in the view"),
  name: z.string(),
  unit: z.string().nullable().describe('the unit most readings show after their number ("%", "kW"), or null'),
  isTime: z.boolean().describe('true when the values are times (their numbers are seconds)'),
  cells: z.array(exportCellSchema).describe('one per frame, in frame order'),
});

export const numericalExportSchema = z.object({
  format: z.literal(NUMERICAL_EXPORT_FORMAT),
  version: z.literal(NUMERICAL_EXPORT_VERSION),
  exportedAt: z.string().datetime({ offset: true }),
  upload: z.object({ id: z.string(), name: z.string(), kind: z.enum(['Video', 'Pictures']) }),
  frames: z.array(exportFrameSchema),
  series: z.array(exportSeriesSchema).describe('top of the screen first, as the columns of the CSV'),
});
export type NumericalExport = z.infer<typeof numericalExportSchema>;
export type ExportSeries = z.infer<typeof exportSeriesSchema>;
export type ExportCell = z.infer<typeof exportCellSchema>;

/** The JSON Schema of the export (draft 2020-12), as docs/exports.md shows it. */
export function numericalExportJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(numericalExportSchema, {
    target: 'draft-2020-12',
    // "format": "date-time" says it; zod's long equivalent pattern would only make the schema hard to read.
    override: ({ jsonSchema }) => {
      if (jsonSchema.format === 'date-time') delete jsonSchema.pattern;
    },
  }) as Record<string, unknown>;
}
