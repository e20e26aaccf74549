/*
 * Values as screens show them, read from text by one reader, parseValue: the chart's value of a cleaned cell,
 * "Find the numbers" reading a block as a label and its value (number-series.ts), and the Basic engine telling
 * which words are values (text-runs.ts).
 *
 * Numbers, whatever the screen's locale: "1,234.5", "1.234,5", "48,215,903", "42,5 kW" and "-3.2" all read as the
 * numbers a person would read. Separators: with both ',' and '.', the one that comes last is the decimal mark. With
 * one kind only, it is a thousands separator when it appears more than once or is followed by exactly three digits
 * after a group of one to three ("1,234", "48,215,903"); otherwise it is the decimal mark ("42,5", "3.14"). A lone
 * "1.234" therefore reads as 1.234 (the dot is the decimal mark unless the groups prove otherwise), while "1,234"
 * reads as 1234.
 *
 * Times ("11:12", "1:02:03", "0:45.5") are durations or clock times, not numbers: read as seconds, so a chart puts
 * 11:12 after 10:59 on a time-valued axis instead of plotting the 11 in front of the colon. Two parts read as
 * minutes and seconds (a time of day such as 11:12 keeps its order and spacing either way), three as hours,
 * minutes and seconds.
 */

const SIGN = String.raw`[-+\u2212\u2013]`;
const CURRENCY = '[$€£]';
const DIGITS = String.raw`\d+(?:[.,]\d+)*`;
const CLOCK = String.raw`(?<hours>\d{1,3}):(?<minutes>[0-5]\d)(?::(?<seconds>[0-5]\d))?(?:[.,](?<fraction>\d{1,3}))?`;
const UNIT = String.raw`%|‰|°\s?[CFcf]?|[A-Za-zµΩ]{1,6}(?:\/[A-Za-z]{1,3})?`;
// Empty, or from a non-digit to a non-digit ("Pump 1 " before "52.3 kW"), as short as the value allows.
const LABEL = String.raw`(?<label>(?:\D(?:.*?\D)?)??)`;

const FIRST_TIME = new RegExp(String.raw`(?<![\d.,:])${CLOCK}(?![\d:])`, 'u');
const WHOLE_TIME = new RegExp(String.raw`^${LABEL}\s*${CLOCK}$`, 'u');
/*
 * In a whole reading a sign may stand a space apart from its digits (OCR often reads "- 5 °C"); in running text a
 * dash a space apart is punctuation ("10 - 20"), so the first number there takes a sign written against it only.
 */
const numberPattern = (find: 'first' | 'whole', currency: boolean) => {
  const value = String.raw`(?<sign>${SIGN}?)${find === 'whole' ? String.raw`\s?` : ''}${currency ? `${CURRENCY}?` : ''}(?<digits>${DIGITS})`;
  return new RegExp(find === 'whole' ? String.raw`^${LABEL}\s*${value}(?:\s*(?<unit>${UNIT}))?$` : value, 'u');
};
const NUMBER = {
  first: [numberPattern('first', false), numberPattern('first', true)],
  whole: [numberPattern('whole', false), numberPattern('whole', true)],
} as const;

export interface ParsedValue {
  kind: 'number' | 'time';
  /** The number with its sign, or a time in seconds. */
  value: number;
  /** The sign written before a number, as written ('' when none). */
  sign: string;
  /** The number's decimal mark is a comma ("42,5"; not "1,234", nor "42,0", a whole number). */
  decimalComma: boolean;
  /** With find 'whole', the text before the value: empty, or holding a letter. Otherwise ''. */
  label: string;
  /** With find 'whole', the unit after a number as read ("%", "kW", "km/h"), or null. Otherwise null. */
  unit: string | null;
}

export interface ValueOptions {
  /**
   * 'first' (the default): the first value anywhere in the text, a time before a number ("Battery 81% of 100" is
   * 81), as a chart reads a cleaned cell. 'whole': the text is one reading and nothing else, an optional label then
   * the value and, after a number, its unit ("Battery: 45 %", "Elapsed 00:01:05"); null otherwise.
   */
  find?: 'first' | 'whole';
  /**
   * Whether a time reads as its seconds (the default). Off, "11:12" reads as the number 11: a series of numbers
   * plots, and the proofreader compares, the number a cell shows, not a stray time's seconds.
   */
  times?: boolean;
  /**
   * Whether a currency symbol may stand between the sign and the digits ("$4.99", "-€5"). Only the Basic engine's
   * words take it (a price is a value to keep); "Find the numbers" leaves the symbol to the label of a block
   * ("Price $4.99" is the series "Price $"), and a lone "$4.99" is not a reading there.
   */
  currency?: boolean;
}

const tidy = (s: string) => s.replace(/\s+/g, ' ').trim();
/** A label is nothing, or holds a letter ("# 5" is not a label and a value). */
const labelled = (label: string) => label.trim() === '' || /\p{L}/u.test(label);

/** The value `text` shows (see ValueOptions), or null when it shows none. */
export function parseValue(text: string, { find = 'first', times = true, currency = false }: ValueOptions = {}): ParsedValue | null {
  const t = find === 'whole' ? tidy(text) : text;
  const time = times ? (find === 'whole' ? WHOLE_TIME : FIRST_TIME).exec(t) : null;
  if (time?.groups && labelled(time.groups.label ?? '')) {
    const { hours, minutes, seconds, fraction, label = '' } = time.groups;
    const total = seconds === undefined ? Number(hours) * 60 + Number(minutes) : Number(hours) * 3600 + Number(minutes) * 60 + Number(seconds);
    return { kind: 'time', value: total + (fraction ? Number(`0.${fraction}`) : 0), sign: '', decimalComma: false, label, unit: null };
  }
  const number = NUMBER[find][currency ? 1 : 0].exec(t);
  if (!number?.groups || !labelled(number.groups.label ?? '')) return null;
  const { sign = '', digits = '', label = '', unit } = number.groups;
  const value = numberOf(digits);
  if (value === null) return null;
  // A comma read as the decimal mark ("42,5"), not as thousands ("1,234").
  const decimalComma = digits.includes(',') && !Number.isInteger(value) && numberOf(digits.replace(/,/g, '')) !== value;
  const negative = sign !== '' && sign !== '+';
  return { kind: 'number', value: negative ? -value : value, sign, decimalComma, label, unit: unit ?? null };
}

const isGroupOfThree = (p: string) => p.length === 3;

/** Digits with separators as the number a person reads (see above), or null when it is too large to be one. */
function numberOf(digits: string): number | null {
  const lastComma = digits.lastIndexOf(',');
  const lastDot = digits.lastIndexOf('.');
  let normalised: string;
  if (lastComma >= 0 && lastDot >= 0) {
    const decimalAt = Math.max(lastComma, lastDot);
    normalised = `${digits.slice(0, decimalAt).replace(/[.,]/g, '')}.${digits.slice(decimalAt + 1)}`;
  } else if (lastComma >= 0 || lastDot >= 0) {
    const parts = digits.split(lastComma >= 0 ? ',' : '.');
    const grouped = parts[0]!.length <= 3 && parts.slice(1).every(isGroupOfThree);
    const thousands = grouped && (parts.length > 2 || lastComma >= 0);
    normalised = thousands ? parts.join('') : `${parts[0]}.${parts[1]}`;
  } else {
    normalised = digits;
  }
  const value = Number(normalised);
  return Number.isFinite(value) ? value : null;
}

// A unit right after the first number: "20%", "150 kW", "12 km/h", "21 °C".
const READING_UNIT = new RegExp(String.raw`-?${DIGITS}\s*(%|‰|°\s?[CFcf]?|[A-Za-zµΩ]+(?:\/[A-Za-z]+)?)`);

/** The unit written after the first number in a reading ("Battery 20%" -> "%", "150 kW" -> "kW"), or null. */
export function readingUnit(text: string): string | null {
  const match = READING_UNIT.exec(text.replace(/[\u2212\u2013]/g, '-'));
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
