// Plain JS module of the repo's start script: the product runs the way `npm start` runs it, in a RabbitMQ vhost,
// a database and a data folder of its own.
import { startIsolatedProduct } from '../../scripts/lib/isolated-product.mjs';

export const E2E_DATA_DIR_ENV = 'FRAMETEXT_E2E_DATA_DIR';

export default async function globalSetup(): Promise<() => Promise<void>> {
  const product = await startIsolatedProduct('e2e', { LOG_LEVEL: 'info' });
  process.env[E2E_DATA_DIR_ENV] = product.dataDir;
  return () => product.stop();
}
