/** Everything the SPA keeps in localStorage, by name, so a reader finds every key in one place. */
export const KEYS = {
  session: 'frametext.session',
  theme: 'theme',
  gotStarted: 'got_started',
  viewedHowTo: 'ViewedHowTo',
} as const;

export function readJson<T>(key: string): T | null {
  try {
    const raw = localStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  } catch {
    return null;
  }
}

export function writeJson(key: string, value: unknown): void {
  if (value === null || value === undefined) localStorage.removeItem(key);
  else localStorage.setItem(key, JSON.stringify(value));
}
