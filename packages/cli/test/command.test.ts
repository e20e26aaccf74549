import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { RUN_TYPESCRIPT_SOURCES } from '@frametext/service-kit/testing';

const here = (path: string) => new URL(`../${path}`, import.meta.url);
const manifest = JSON.parse(readFileSync(here('package.json'), 'utf8')) as { bin: Record<string, string> };

describe('the frametext command', () => {
  it('is a file the clone has, so pnpm links it at install, before anything is built', () => {
    const file = manifest.bin.frametext!;
    expect(file).not.toMatch(/dist\//);
    expect(existsSync(here(file))).toBe(true);
  });

  it('prints how to use it', async () => {
    // The sources; the pipeline's scripting test runs the built command through this file.
    const { stdout } = await promisify(execFile)(process.execPath, [...RUN_TYPESCRIPT_SOURCES, fileURLToPath(here('src/main.ts')), '--help']);
    expect(stdout).toMatch(/^Usage:/m);
    expect(stdout).toMatch(/frametext upload <file\.\.\.>/);
  });
});
