/** Entries beyond which the gateway's per-token maps drop stale ones (a flood of made-up tokens must not grow memory). */
export const MAX_ENTRIES = 10_000;

/** Drops the entries last used before `before`; if the map is still full of fresh ones, its oldest half. */
export function dropOlderThan<V>(map: Map<string, V>, before: number, timeOf: (v: V) => number): void {
  for (const [key, value] of map) if (timeOf(value) < before) map.delete(key);
  // Maps iterate in insertion order.
  if (map.size >= MAX_ENTRIES) for (const key of [...map.keys()].slice(0, map.size / 2)) map.delete(key);
}
