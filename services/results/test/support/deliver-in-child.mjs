// Runs one pass of results' webhook delivery loop in a process of its own (the sources, run with
// RUN_TYPESCRIPT_SOURCES), so a test can kill it mid-delivery:
// node deliver-in-child.mjs <database url> <schema> <config as JSON>.
import { createDb } from '@frametext/service-kit';
import { configSchema } from '../../src/config.js';
import { deliverDueWebhooks } from '../../src/domain/webhooks.js';

const [url, schema, settings] = process.argv.slice(2);
const config = configSchema.parse(JSON.parse(settings));
const db = createDb(url, schema, { max: 2 });
const quiet = { info() {}, warn() {}, error() {}, debug() {} };
process.send?.('ready');
await deliverDueWebhooks({ config, db, logger: quiet });
await db.destroy();
