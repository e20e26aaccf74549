import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Read from disk: Vitest hands CSS imports (even ?raw) to tests as empty strings.
const css = readFileSync(path.join(import.meta.dirname, 'global.css'), 'utf8');

/*
 * WCAG AA: body text needs a contrast ratio of at least 4.5:1 with what it sits on. Computed from the theme's own
 * CSS variables, so a colour change that breaks it fails here.
 */
const AA = 4.5;
const TEXT = ['text', 'muted', 'accent', 'danger', 'success', 'warning'];
const BACKGROUNDS = ['bg', 'surface', 'surface-2', 'accent-soft', 'danger-soft', 'success-soft', 'warning-soft'];

/** The `--name: #rrggbb` variables of the rule whose selector is `selector`. */
function themeColours(selector: string): Record<string, string> {
  const start = css.indexOf(`${selector} {`);
  const block = css.slice(start, css.indexOf('}', start));
  return Object.fromEntries([...block.matchAll(/--([\w-]+):\s*(#[0-9a-f]{6})\b/gi)].map((m) => [m[1]!, m[2]!]));
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

describe.each([
  ['light', ':root'],
  ['dark', "[data-theme='dark']"],
])('the %s theme', (_theme, selector) => {
  const colours = themeColours(selector);
  const pairs = [...TEXT.flatMap((text) => BACKGROUNDS.map((background) => [text, background])), ['accent-contrast', 'accent'], ['accent-contrast', 'accent-hover']];

  it.each(pairs)('--%s on --%s reaches 4.5:1', (text, background) => {
    expect(colours[text!], text).toMatch(/^#/);
    expect(colours[background!], background).toMatch(/^#/);
    expect(contrast(colours[text!]!, colours[background!]!)).toBeGreaterThanOrEqual(AA);
  });
});

describe('placeholders', () => {
  it('are drawn in the full muted colour, not faded below it', () => {
    const rules = css.split('}').filter((rule) => rule.includes('::placeholder'));
    expect(rules.length).toBeGreaterThan(0);
    for (const rule of rules) expect(rule).not.toMatch(/opacity:\s*0?\.\d/);
  });
});
