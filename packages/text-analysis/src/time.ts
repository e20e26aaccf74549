/** m:ss for a time in seconds (h:mm:ss from an hour on); negative and missing times show as 0:00. */
export function formatClock(seconds: number | null | undefined): string {
  const total = seconds === null || seconds === undefined || !Number.isFinite(seconds) ? 0 : Math.max(0, Math.round(seconds));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** The timestamp in a frame's file name: its leading number, in milliseconds (spec section 3); null if none. */
export function frameTimeFromUrl(url: string): number | null {
  const name = decodeURIComponent(url.split('?')[0]?.split('/').pop() ?? '');
  const match = /^(\d+)/.exec(name);
  return match ? Number(match[1]) / 1000 : null;
}
