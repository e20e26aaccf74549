/**
 * The wait after failed attempt number `attempt` (1 for the first): `base` doubling per attempt up to `max`, with
 * "equal jitter" (between half and all of it) so that receivers that came back together are not hit together again.
 */
export function retryDelayMs(attempt: number, base: number, max: number, random: () => number = Math.random): number {
  const full = Math.min(max, base * 2 ** Math.min(attempt - 1, 40));
  return Math.round(full / 2 + (random() * full) / 2);
}
