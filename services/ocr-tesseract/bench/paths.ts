import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository's root: the nearest folder above this module with pnpm-workspace.yaml. Searched for, not counted,
 * because the module runs from two depths: its source (bench/) and its build (dist/bench/).
 */
function repositoryRoot(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  for (let dir = here; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'pnpm-workspace.yaml'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no pnpm-workspace.yaml above ${here}: the benches run inside the repository`);
  }
}

/** bench/corpus at the repository's root: media from public repositories with the truth they publish. */
export const CORPUS_DIR = join(repositoryRoot(), 'bench', 'corpus');

/** bench/lone-digits at the repository's root: frames of one seven-segment digit, photos and font-drawn. */
export const LONE_DIGITS_DIR = join(repositoryRoot(), 'bench', 'lone-digits');
