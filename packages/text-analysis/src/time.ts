/**
 * m:ss for a time in seconds (h:mm:ss from an hour on), with `decimals` digits of the second after a point
 * (m:ss.s); negative and missing times show as 0:00.
 */
export function formatClock(seconds: number | null | undefined, decimals = 0): string {
  const scale = 10 ** decimals;
  const units = seconds === null || seconds === undefined || !Number.isFinite(seconds) ? 0 : Math.max(0, Math.round(seconds * scale));
  const total = Math.floor(units / scale);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const fraction = decimals > 0 ? `.${String(units % scale).padStart(decimals, '0')}` : '';
  const s = `${String(total % 60).padStart(2, '0')}${fraction}`;
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** The most digits after the second's point a frame time is ever shown with (milliseconds). */
export const MAX_CLOCK_DECIMALS = 3;

/**
 * How many digits after the second's point tell a media's frames apart: 0 while they are a second or more apart,
 * 1 when the closest two are under a second apart (m:ss.s), 2 under a tenth of a second, 3 at most. Every table
 * and export of one upload uses the same count, so their times agree.
 */
export function clockDecimals(times: readonly (number | null | undefined)[]): number {
  const known = times.filter((t): t is number => t !== null && t !== undefined && Number.isFinite(t)).sort((a, b) => a - b);
  let gap = Number.POSITIVE_INFINITY;
  for (let i = 1; i < known.length; i++) {
    const d = known[i]! - known[i - 1]!;
    if (d > 1e-6 && d < gap) gap = d;
  }
  let decimals = 0;
  while (decimals < MAX_CLOCK_DECIMALS && gap < 10 ** -decimals - 1e-9) decimals++;
  return decimals;
}

/** The timestamp in a frame's file name: its leading number, in milliseconds (spec section 3); null if none. */
export function frameTimeFromUrl(url: string): number | null {
  const name = decodeURIComponent(url.split('?')[0]?.split('/').pop() ?? '');
  const match = /^(\d+)/.exec(name);
  return match ? Number(match[1]) / 1000 : null;
}
