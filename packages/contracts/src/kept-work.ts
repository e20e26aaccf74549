import { z } from 'zod';

/*
 * A person's work in a results view, kept per upload and view: GET and PUT /api/uploads/:id/work/:view.
 * The document is the view's own state (series and their cleaning, boxes and filters, the scroll template, the
 * ticked frames), each view's shape below; the same schemas check it in the SPA (on restore, local and server
 * alike) and in the results service (on save). Each document carries a version, so a later shape can read an older
 * one instead of dropping it.
 */

export const KEPT_WORK_VIEWS = ['presentation', 'numerical', 'region', 'scroll'] as const;
export const keptWorkViewSchema = z.enum(KEPT_WORK_VIEWS, { error: 'view must be presentation, numerical, region or scroll' });
export type KeptWorkView = z.infer<typeof keptWorkViewSchema>;

/** The largest document kept per view, as JSON; well above what a person builds by hand (about 20 KB a locked series of 360 frames). */
export const KEPT_WORK_MAX_BYTES = 256 * 1024;

const unit = z.number().min(0).max(1);
const rectSchema = z.object({ x: unit, y: unit, w: unit, h: unit });
const text = (max: number) => z.string().max(max, `at most ${max} characters`);
const count = z.number().int().nonnegative();
const percent = z.number().min(0).max(100);

const trackingSettingsSchema = z.object({
  similarity: percent,
  disappearance: count.max(100),
  minSize: unit,
  confidence: percent,
});

const blockSettingsSchema = z.object({
  seriesName: text(500),
  numbersOnly: z.boolean(),
  wordsToRemove: text(2000),
  charactersToRemove: text(500),
  characterToSplit: text(50),
  keepSplitItem: count.max(1000),
});

const selectedBlockSchema = z.object({
  id: text(200),
  originalId: text(200),
  locked: z.boolean(),
  uniqueID: z.number().int().min(1000).max(9999),
  points: z.array(z.object({ frame: count, index: count })).max(100_000).nullable(),
  total: count.nullable(),
  settings: blockSettingsSchema,
});

/** Values typed over readings while proofreading: by series uniqueID, then frame index, the typed value. */
const correctionsSchema = z.record(z.string().regex(/^\d+$/, 'a series id'), z.record(z.string().regex(/^\d+$/, 'a frame index'), text(200)));

/**
 * Numerical: the tracking settings, the selected series (names, cleaning, locks with their frozen frames) and the
 * corrections typed while proofreading (optional: work kept before proofreading existed has none).
 */
export const numericalWorkSchema = z.object({
  version: z.literal(1),
  tracking: trackingSettingsSchema,
  blocks: z.array(selectedBlockSchema).max(200, 'at most 200 series'),
  corrections: correctionsSchema.optional(),
});
export type NumericalWork = z.infer<typeof numericalWorkSchema>;

const rangeSchema = z.object({ min: z.number().nonnegative(), max: z.number().nonnegative() });
const boxIdSchema = z.union([z.literal(0), z.literal(1), z.literal(2), z.literal(3)]);

/** Region: the four boxes (on or off, and where), the selected one, and the filters. */
export const regionWorkSchema = z.object({
  version: z.literal(1),
  boxes: z.array(z.object({ id: boxIdSchema, enabled: z.boolean(), norm: rectSchema.nullable() })).max(4),
  selected: boxIdSchema,
  filters: z.object({ minConfidence: percent, length: rangeSchema, area: rangeSchema }),
});
export type RegionWork = z.infer<typeof regionWorkSchema>;

/** A row of the Scroll list, named by its first sighting: "frame index:top in pixels". */
const scrollRowRef = z.string().regex(/^\d{1,6}:-?\d{1,6}$/, 'a row is named "frame:top"');

/**
 * Scroll: the template box, and where it was locked (frame, box and that frame's size: the template's layout is
 * read again from the frame on restore), the settings and Ignore duplicates, and, once Detect Items has run, the
 * detection settings it ran with (`detected`; absent when there are no results). The items themselves are not
 * stored: they follow from the frames, the locked template and those settings, so the view finds the same items
 * again on open, and a list of thousands of sightings never meets the size limit. `edits`: the person's corrections
 * to that list (rows edited, removed, merged into the one above), each row named by its first sighting
 * ("frame index:top"); absent when there are none.
 */
export const scrollWorkSchema = z.object({
  version: z.literal(1),
  box: rectSchema,
  locked: z.object({ frameIndex: count, box: rectSchema, space: z.object({ width: z.number().positive(), height: z.number().positive() }) }).nullable(),
  settings: z.object({ linePositionTolerance: percent, lineCountTolerance: percent, minSimilarity: percent, duplicateThreshold: percent }),
  ignoreDuplicates: z.boolean(),
  detected: z.object({ linePositionTolerance: percent, lineCountTolerance: percent, minSimilarity: percent }).optional(),
  edits: z
    .object({
      texts: z.record(scrollRowRef, z.array(text(2000)).max(100)),
      removed: z.array(scrollRowRef).max(20_000),
      merged: z.record(scrollRowRef, scrollRowRef),
    })
    .optional(),
});
export type ScrollWork = z.infer<typeof scrollWorkSchema>;

/** Presentation: the similarity threshold and which frames are ticked (one flag per frame). */
export const presentationWorkSchema = z.object({
  version: z.literal(1),
  threshold: percent,
  selected: z.array(z.boolean()).max(100_000),
});
export type PresentationWork = z.infer<typeof presentationWorkSchema>;

export const KEPT_WORK_SCHEMAS = {
  presentation: presentationWorkSchema,
  numerical: numericalWorkSchema,
  region: regionWorkSchema,
  scroll: scrollWorkSchema,
} as const satisfies Record<KeptWorkView, z.ZodType>;

export interface KeptWorkDocuments {
  presentation: PresentationWork;
  numerical: NumericalWork;
  region: RegionWork;
  scroll: ScrollWork;
}

/**
 * GET answer. `revision` counts the saves (0: nothing saved yet, `document` null); a save names the revision it
 * builds on, so a save from a tab that missed another tab's save is refused (409) instead of silently undoing it.
 */
export const keptWorkResponseSchema = z.object({
  data: z.object({
    view: keptWorkViewSchema,
    revision: count,
    document: z.unknown().nullable(),
    updatedAt: z.string().nullable(),
  }),
});
export type KeptWorkResponse = z.infer<typeof keptWorkResponseSchema>;

/** PUT body: the revision the document builds on (the last one read or saved) and the document. */
export const saveKeptWorkRequestSchema = z.object({
  revision: count,
  document: z.record(z.string(), z.unknown(), { error: 'document must be an object' }),
});
export type SaveKeptWorkRequest = z.infer<typeof saveKeptWorkRequestSchema>;

/** PUT answer: the new revision. */
export const saveKeptWorkResponseSchema = z.object({ data: z.object({ revision: count, updatedAt: z.string() }) });
export type SaveKeptWorkResponse = z.infer<typeof saveKeptWorkResponseSchema>;

/** The view's document, or null when it is missing, another view's, or a shape this code does not know. */
export function parseKeptWork<V extends KeptWorkView>(view: V, document: unknown): KeptWorkDocuments[V] | null {
  if (document == null) return null;
  const parsed = KEPT_WORK_SCHEMAS[view].safeParse(document);
  return parsed.success ? (parsed.data as KeptWorkDocuments[V]) : null;
}
