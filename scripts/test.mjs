// `npm test`: provision like `npm start`, then typecheck, lint and run every test.
// Files named *.serial.test.ts disturb shared infrastructure (they restart the broker or the database, or take the
// real ports) and run alone after the rest; the browser tests (frontend/e2e) come last.
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { provision } from './lib/provision.mjs';
import { fail, log, run } from './lib/sh.mjs';
import { ROOT } from './lib/services.mjs';

const resultsDir = path.join(ROOT, 'test-results');
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });
const vitest = (name, args) => run('pnpm', ['exec', 'vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${path.join(resultsDir, `${name}.json`)}`, ...args]);

/** Adds up the counts of every Vitest run, for one closing line. */
function totals() {
  const sum = { passed: 0, failed: 0, skipped: 0 };
  for (const name of ['main', 'serial']) {
    try {
      const r = JSON.parse(readFileSync(path.join(resultsDir, `${name}.json`), 'utf8'));
      sum.passed += r.numPassedTests;
      sum.failed += r.numFailedTests;
      sum.skipped += r.numPendingTests + r.numTodoTests;
    } catch {
      // That run did not get far enough to write its results.
    }
  }
  try {
    const e2e = JSON.parse(readFileSync(path.join(resultsDir, 'e2e.json'), 'utf8')).stats;
    sum.passed += e2e.expected + e2e.flaky;
    sum.failed += e2e.unexpected;
    sum.skipped += e2e.skipped;
  } catch {
    // The browser tests did not run.
  }
  return sum;
}
const closingLine = () => {
  const t = totals();
  return `${t.passed} passed, ${t.failed} failed${t.skipped ? `, ${t.skipped} skipped` : ''}`;
};

const started = Date.now();
const step = async (name, fn) => {
  const t = Date.now();
  log(`${name}...`);
  await fn();
  log(`${name} done in ${Math.round((Date.now() - t) / 1000)} s`);
};

try {
  await step('provisioning', () => provision({ forTests: true }));
  await step('typecheck', () => run('pnpm', ['run', 'typecheck']));
  await step('lint', () => run('pnpm', ['run', 'lint']));
  await step('unit and service tests', () => vitest('main', ['--exclude', '**/*.serial.test.ts', '--exclude', '**/node_modules/**']));
  await step('serial tests', () => vitest('serial', ['--no-file-parallelism', 'serial.test.ts']));
  // Debian's Chromium against the whole product as `npm start` runs it; screenshots in test-results/screenshots.
  await step('browser tests', () => run('pnpm', ['--filter', '@frametext/frontend', 'exec', 'playwright', 'test']));
} catch (err) {
  console.log(closingLine());
  fail(`${err.message} (after ${Math.round((Date.now() - started) / 1000)} s)`);
}
log(`all tests passed in ${Math.round((Date.now() - started) / 1000)} s`);
console.log(closingLine());
