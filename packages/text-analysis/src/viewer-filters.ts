import { areaOf, normaliseConfidence, type TextBlock } from './geometry.js';

/*
 * The frame viewer's filters (Region view): a minimum confidence, and ranges for a block's character length and
 * its area in px². A block is shown and read only when it passes all three.
 */

export const VIEWER_CONFIDENCE_MIN = 50;
export const VIEWER_CONFIDENCE_MAX = 100;
export const VIEWER_CONFIDENCE_DEFAULT = 50;

export interface Range {
  min: number;
  max: number;
}

export interface BlockFilters {
  /** 50..100; blocks without a confidence always pass. */
  minConfidence: number;
  /** Characters of the block's trimmed text, both ends included. */
  length: Range;
  /** px², both ends included. */
  area: Range;
}

/** The largest text length and block area over many frames: the filters' ranges start as 0 to these. */
export function blockLimits(frames: readonly (readonly TextBlock[])[]): { maxLength: number; maxArea: number } {
  let maxLength = 0;
  let maxArea = 0;
  for (const blocks of frames) {
    for (const block of blocks) {
      maxLength = Math.max(maxLength, block.text.trim().length);
      maxArea = Math.max(maxArea, areaOf(block));
    }
  }
  return { maxLength, maxArea: Math.ceil(maxArea) };
}

/** Filters that let every block through, for frames whose blocks reach these limits. */
export function openFilters(limits: { maxLength: number; maxArea: number }): BlockFilters {
  return { minConfidence: VIEWER_CONFIDENCE_DEFAULT, length: { min: 0, max: limits.maxLength }, area: { min: 0, max: limits.maxArea } };
}

export function passesFilters(block: TextBlock, filters: BlockFilters): boolean {
  if (block.confidence !== undefined && normaliseConfidence(block.confidence) < filters.minConfidence) return false;
  const length = block.text.trim().length;
  if (length < filters.length.min || length > filters.length.max) return false;
  const area = areaOf(block);
  return area >= filters.area.min && area <= filters.area.max;
}

export function filterBlocks<T extends TextBlock>(blocks: readonly T[], filters: BlockFilters): T[] {
  return blocks.filter((block) => passesFilters(block, filters));
}
