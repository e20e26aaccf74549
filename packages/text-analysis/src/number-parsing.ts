/*
 * The number in a cleaned reading, for charts, whatever the screen's locale: "1,234.5", "1.234,5", "48,215,903",
 * "42,5 kW" and "-3.2" all read as the numbers a person would read. The first number in the text counts.
 *
 * Separators: with both ',' and '.', the one that comes last is the decimal mark. With one kind only, it is a
 * thousands separator when it appears more than once or is followed by exactly three digits after a group of one
 * to three ("1,234", "48,215,903"); otherwise it is the decimal mark ("42,5", "3.14"). A lone "1.234" therefore
 * reads as 1.234 (the dot is the decimal mark unless the groups prove otherwise), while "1,234" reads as 1234.
 */

const NUMBER = /-?\d+(?:[.,]\d+)*/;

const isGroupOfThree = (p: string) => p.length === 3;

/** The first number in `text`, or null when there is none. */
export function parseLocaleNumber(text: string): number | null {
  const match = NUMBER.exec(text.replace(/[\u2212\u2013]/g, '-'));
  if (!match) return null;
  const negative = match[0].startsWith('-');
  const token = negative ? match[0].slice(1) : match[0];
  const lastComma = token.lastIndexOf(',');
  const lastDot = token.lastIndexOf('.');

  let normalised: string;
  if (lastComma >= 0 && lastDot >= 0) {
    const decimalAt = Math.max(lastComma, lastDot);
    normalised = `${token.slice(0, decimalAt).replace(/[.,]/g, '')}.${token.slice(decimalAt + 1)}`;
  } else if (lastComma >= 0 || lastDot >= 0) {
    const parts = token.split(lastComma >= 0 ? ',' : '.');
    const grouped = parts[0]!.length <= 3 && parts.slice(1).every(isGroupOfThree);
    const thousands = grouped && (parts.length > 2 || lastComma >= 0);
    normalised = thousands ? parts.join('') : `${parts[0]}.${parts[1]}`;
  } else {
    normalised = token;
  }
  const value = Number(normalised);
  if (!Number.isFinite(value)) return null;
  return negative ? -value : value;
}

/*
 * Times on screen ("11:12", "1:02:03", "0:45.5") are durations or clock times, not numbers: read as seconds, so
 * a chart puts 11:12 after 10:59 on a time-valued axis instead of plotting the 11 in front of the colon.
 * Two parts read as minutes and seconds (a time of day such as 11:12 keeps its order and spacing either way),
 * three as hours, minutes and seconds.
 */
const CLOCK = /(?<![\d.,:])(\d{1,3}):([0-5]\d)(?::([0-5]\d))?(?:[.,](\d{1,3}))?(?![\d:])/;

/** The first time in `text` in seconds ("11:12" = 672, "1:02:03" = 3723, "0:45.5" = 45.5), or null. */
export function parseClockReading(text: string): number | null {
  const match = CLOCK.exec(text);
  if (!match) return null;
  const [, a, b, c, fraction] = match;
  const whole = c === undefined ? Number(a) * 60 + Number(b) : Number(a) * 3600 + Number(b) * 60 + Number(c);
  return whole + (fraction ? Number(`0.${fraction}`) : 0);
}

/** A reading for a chart: a time in seconds when the text shows one, otherwise its first number. */
export interface ChartReading {
  value: number;
  isTime: boolean;
}

export function parseChartReading(text: string): ChartReading | null {
  const seconds = parseClockReading(text);
  if (seconds !== null) return { value: seconds, isTime: true };
  const value = parseLocaleNumber(text);
  return value === null ? null : { value, isTime: false };
}

// A unit right after the first number: "20%", "150 kW", "12 km/h", "21 °C".
const UNIT = /-?\d+(?:[.,]\d+)*\s*(%|‰|°\s?[CFcf]?|[A-Za-zµΩ]+(?:\/[A-Za-z]+)?)/;

/** The unit written after the first number in a reading ("Battery 20%" -> "%", "150 kW" -> "kW"), or null. */
export function readingUnit(text: string): string | null {
  const match = UNIT.exec(text.replace(/[\u2212\u2013]/g, '-'));
  return match ? match[1]!.replace(/\s+/g, '') : null;
}

/** The unit most of `texts` show (ties: the first seen), ignoring case; null when none shows one. */
export function commonUnit(texts: Iterable<string>): string | null {
  const counts = new Map<string, { unit: string; count: number }>();
  for (const text of texts) {
    const unit = readingUnit(text);
    if (unit === null) continue;
    const key = unit.toLowerCase();
    const entry = counts.get(key) ?? { unit, count: 0 };
    entry.count++;
    counts.set(key, entry);
  }
  let best: { unit: string; count: number } | null = null;
  for (const entry of counts.values()) if (!best || entry.count > best.count) best = entry;
  return best?.unit ?? null;
}
