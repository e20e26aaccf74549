import { ensureDatabase } from '@frametext/service-kit';
import { TEST_DATABASE_URL } from '@frametext/service-kit/testing';

/** Runs once before any test file: the test database must exist before files create their schemas in it. */
export default async function setup(): Promise<void> {
  await ensureDatabase(TEST_DATABASE_URL);
}
