// Plain JS module of the repo's start script: the product runs the way `npm start` runs it, in a RabbitMQ vhost,
// a database and a data folder of its own.
import { startIsolatedProduct } from '../../scripts/lib/isolated-product.mjs';

export const E2E_DATA_DIR_ENV = 'FRAMETEXT_E2E_DATA_DIR';

// Webhooks may call the specs' receivers on 127.0.0.1 over plain http (production allows https to public addresses only).
export default async function globalSetup(): Promise<() => Promise<void>> {
  const product = await startIsolatedProduct('e2e', { LOG_LEVEL: 'info', WEBHOOK_LOCAL_HOSTS: '127.0.0.1' });
  process.env[E2E_DATA_DIR_ENV] = product.dataDir;
  return () => product.stop();
}
