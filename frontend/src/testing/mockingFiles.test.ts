import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';

// Component test files share their workers' modules (vitest.config.ts): a vi.mock in an ordinary file would replace
// the module for the files after it too.
describe('component test files', () => {
  it('replace modules with vi.mock only when named *.mocking.test.*, so they run on their own', () => {
    const src = join(dirname(expect.getState().testPath!), '..');
    const tests = (readdirSync(src, { recursive: true }) as string[]).filter((f) => /\.test\.tsx?$/.test(f));
    const mocking = tests.filter((f) => /\bvi\.mock\(/.test(readFileSync(join(src, f), 'utf8')));
    expect(mocking.length).toBeGreaterThan(0);
    expect(mocking.filter((f) => !/\.mocking\.test\.tsx?$/.test(f))).toEqual([]);
  });
});
