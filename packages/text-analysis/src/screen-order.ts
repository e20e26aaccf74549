/*
 * Screen order, as a person reads a screen: top to bottom, and left to right along a line. An item is on the line
 * of the item above it when their vertical centres are less than half the smaller of their heights apart, so two
 * readings side by side stay in that order though one is drawn a few pixels higher. Equal places keep the order
 * given; items without a place (a series with no block) come last.
 */

export interface ScreenPlace {
  /** Horizontal centre. */
  x: number;
  /** Vertical centre. */
  y: number;
  height: number;
}

export function inReadingOrder<T>(items: readonly T[], place: (item: T) => ScreenPlace): T[] {
  const placed = items.map((item, order) => ({ item, order, at: place(item) }));
  const known = placed.filter((p) => Number.isFinite(p.at.y)).sort((a, b) => a.at.y - b.at.y || a.order - b.order);
  const lines: (typeof known)[] = [];
  for (const p of known) {
    const line = lines.at(-1);
    const last = line?.at(-1);
    if (line && last && p.at.y - last.at.y < Math.min(last.at.height, p.at.height) / 2) line.push(p);
    else lines.push([p]);
  }
  const ordered = lines.flatMap((line) => line.sort((a, b) => (Number.isFinite(a.at.x) && Number.isFinite(b.at.x) ? a.at.x - b.at.x : 0) || a.order - b.order));
  return [...ordered, ...placed.filter((p) => !Number.isFinite(p.at.y))].map((p) => p.item);
}
