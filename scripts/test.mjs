// The tests, split by cost, each a README command; `.ci/run` runs all three and the containers:
//   npm test                provision (no build: these tests run the sources), typecheck and lint side by side,
//                           then the unit and service tests (the fast loop)
//   npm run test:pipeline   the tests that start the whole stack (test/pipeline)
//   npm run test:e2e        the browser tests (frontend/e2e) against the product as `npm start` runs it
// Files named *.serial.test.ts disturb shared infrastructure (they restart the broker or the database, or take the
// real ports) and run alone, after the rest of their command's files.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { provision } from './lib/provision.mjs';
import { fail, log, run } from './lib/sh.mjs';
import { ROOT } from './lib/services.mjs';

const MODES = {
  unit: { title: 'unit and service tests', projects: ['node', 'frontend', 'frontend-mocking'], results: ['main', 'serial'] },
  pipeline: { title: 'pipeline tests', projects: ['pipeline'], results: ['pipeline', 'pipeline-serial'] },
  e2e: { title: 'browser tests', projects: [], results: ['e2e'] },
};
const mode = process.argv[2] ?? 'unit';
if (!MODES[mode]) fail(`unknown test command "${mode}": use no argument, pipeline or e2e`);
const { title, projects, results } = MODES[mode];

const resultsDir = path.join(ROOT, 'test-results');
mkdirSync(resultsDir, { recursive: true });
for (const name of results) rmSync(path.join(resultsDir, `${name}.json`), { force: true });
const vitest = (name, args) =>
  run('pnpm', ['exec', 'vitest', 'run', ...projects.flatMap((p) => ['--project', p]), '--reporter=default', '--reporter=json', `--outputFile.json=${path.join(resultsDir, `${name}.json`)}`, ...args]);

/** Adds up the counts of this command's runs, for one closing line. */
function closingLine() {
  const sum = { passed: 0, failed: 0, skipped: 0 };
  for (const name of results) {
    try {
      const r = JSON.parse(readFileSync(path.join(resultsDir, `${name}.json`), 'utf8'));
      if (r.stats) {
        sum.passed += r.stats.expected + r.stats.flaky;
        sum.failed += r.stats.unexpected;
        sum.skipped += r.stats.skipped;
      } else {
        sum.passed += r.numPassedTests;
        sum.failed += r.numFailedTests;
        sum.skipped += r.numPendingTests + r.numTodoTests;
      }
    } catch {
      // That run did not get far enough to write its results.
    }
  }
  return `${sum.passed} passed, ${sum.failed} failed${sum.skipped ? `, ${sum.skipped} skipped` : ''}`;
}

const started = Date.now();
const step = async (name, fn) => {
  const t = Date.now();
  log(`${name}...`);
  await fn();
  log(`${name} done in ${Math.round((Date.now() - t) / 1000)} s`);
};

try {
  await step('provisioning', () => provision({ forTests: true, build: mode !== 'unit' }));
  if (mode === 'unit') {
    // Side by side: each is one process on one core.
    await Promise.all([step('typecheck', () => run('pnpm', ['run', 'typecheck'], { buffered: true })), step('lint', () => run('pnpm', ['run', 'lint'], { buffered: true }))]);
  }
  if (mode === 'e2e') {
    // Debian's Chromium against the whole product as `npm start` runs it; screenshots in test-results/screenshots.
    await step(title, () => run('pnpm', ['--filter', '@frametext/frontend', 'exec', 'playwright', 'test']));
  } else {
    await step(title, () => vitest(results[0], ['--exclude', '**/*.serial.test.ts', '--exclude', '**/node_modules/**']));
    await step(`${title}, one at a time`, () => vitest(results[1], ['--no-file-parallelism', '--passWithNoTests', 'serial.test.ts']));
  }
} catch (err) {
  console.log(closingLine());
  fail(`${err.message} (after ${Math.round((Date.now() - started) / 1000)} s)`);
}
log(`${title} passed in ${Math.round((Date.now() - started) / 1000)} s`);
console.log(closingLine());
