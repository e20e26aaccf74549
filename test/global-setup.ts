// Vitest loads this file in its own process, where the "source" export condition does not apply: it imports the
// kit's sources by path, so the tests run on a checkout that was never built.
import { ensureDatabase } from '../packages/service-kit/src/db/index.js';
import { TEST_DATABASE_URL } from '../packages/service-kit/src/testing/basics.js';

/** Runs once before any test file: the test database must exist before files create their schemas in it. */
export default async function setup(): Promise<void> {
  await ensureDatabase(TEST_DATABASE_URL);
}
