import { parseKeptWork, type RegionWork } from '@frametext/contracts';
import type { BlockFilters } from '@frametext/text-analysis';
import { fitRect, initialBoxes, type BoxId, type SelectionBox } from './boxes';

/*
 * The Region view's kept work (issue 16): each box on or off and where, the selected box, and the filters. A new
 * piece of state is kept by adding it here, in both functions, and to regionWorkSchema in @frametext/contracts.
 */

export function regionWork(boxes: readonly SelectionBox[], selected: BoxId, filters: BlockFilters): RegionWork {
  return {
    version: 1,
    boxes: boxes.map((b) => ({ id: b.id, enabled: b.enabled, norm: b.norm ? { ...b.norm } : null })),
    selected,
    filters: { minConfidence: filters.minConfidence, length: { ...filters.length }, area: { ...filters.area } },
  };
}

export interface RestoredRegion {
  boxes: SelectionBox[];
  selected: BoxId;
  filters: BlockFilters;
}

/** The kept work as the view's state (names and colours from the four boxes), or null when there is none. */
export function restoreRegionWork(kept: unknown): RestoredRegion | null {
  const work = parseKeptWork('region', kept);
  if (!work) return null;
  const boxes = initialBoxes().map((box) => {
    const saved = work.boxes.find((b) => b.id === box.id);
    return saved ? { ...box, enabled: saved.enabled && saved.norm !== null, norm: saved.norm ? fitRect(saved.norm) : null } : box;
  });
  return { boxes, selected: work.selected, filters: work.filters };
}
