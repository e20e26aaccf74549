import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeScrollListVideo, scrollListItems, textsAt } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'sample-scroll-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const frameAt = (path: string, t: number) => {
  const png = `${path}.${t}.png`;
  execFileSync('ffmpeg', ['-loglevel', 'error', '-y', '-ss', String(t), '-i', path, '-frames:v', '1', png]);
  return png;
};

/** Tesseract's lines with the top of their box. */
function ocrLines(png: string): { text: string; top: number }[] {
  const tsv = execFileSync('tesseract', [png, '-', 'tsv'], { stdio: ['ignore', 'pipe', 'ignore'] }).toString();
  const lines = new Map<string, { words: string[]; top: number }>();
  for (const row of tsv.split('\n').slice(1)) {
    const c = row.split('\t');
    if (c[0] !== '5' || !c[11]?.trim()) continue;
    const key = c.slice(1, 5).join('.');
    const line = lines.get(key) ?? { words: [], top: Number(c[7]) };
    line.words.push(c[11].trim());
    line.top = Math.min(line.top, Number(c[7]));
    lines.set(key, line);
  }
  return [...lines.values()].map((l) => ({ text: l.words.join(' '), top: l.top }));
}

describe('scrolling list video', () => {
  it('names distinct items with a title and a price', () => {
    const items = scrollListItems(25);
    expect(items[6]).toEqual({ number: 7, title: 'Item 07 Linen Towel', price: expect.stringMatching(/^\$ \d+\.\d\d$/) });
    expect(new Set(items.map((i) => i.title)).size).toBe(25);
  });

  it('scrolls the list up steadily, showing the items its truth lists where it says they are', async () => {
    const video = await makeScrollListVideo({ dir, seconds: 6, items: 8 });
    expect(video.speed).toBeGreaterThan(0);
    // Every item comes wholly into view at some time, in list order.
    expect(video.truth.map((x) => x.texts[0])).toEqual(video.items.map((i) => i.title));
    expect(video.truth.every((x, i) => i === 0 || x.startS >= video.truth[i - 1]!.startS)).toBe(true);

    const t = 3;
    const visible = textsAt(video, t);
    expect(visible.length).toBeGreaterThanOrEqual(6);
    const lines = ocrLines(frameAt(video.path, t));
    const read = lines.map((l) => l.text).join('\n');
    for (const text of visible) expect(read).toContain(text);
    // Items whose text the truth says is off screen are not there.
    for (const item of video.items.filter((i) => !visible.includes(i.title))) {
      const top = video.itemTop(item.number - 1, t);
      if (top + video.titleOffset > video.height || top + video.priceOffset < -40) expect(read).not.toContain(item.title);
    }
    // Titles stand where itemTop says (within a few pixels of the drawn text's top).
    for (const item of video.items.filter((i) => visible.includes(i.title))) {
      const line = lines.find((l) => l.text === item.title)!;
      expect(Math.abs(line.top - (video.itemTop(item.number - 1, t) + video.titleOffset))).toBeLessThan(12);
    }
  });
});
