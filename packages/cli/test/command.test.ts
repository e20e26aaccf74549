import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const here = (path: string) => new URL(`../${path}`, import.meta.url);
const manifest = JSON.parse(readFileSync(here('package.json'), 'utf8')) as { bin: Record<string, string> };

describe('the frametext command', () => {
  it('is a file the clone has, so pnpm links it at install, before anything is built', async () => {
    const file = manifest.bin.frametext!;
    expect(file).not.toMatch(/dist\//);
    const { stdout } = await promisify(execFile)(process.execPath, [here(file).pathname, '--help']);
    expect(stdout).toMatch(/^Usage:/m);
    expect(stdout).toMatch(/frametext upload <file\.\.\.>/);
  });
});
