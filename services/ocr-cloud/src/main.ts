import { loadConfigOrExit, runMain } from '@frametext/service-kit';
import { configSchema } from './config.js';

const name = 'ocr-cloud';

await runMain({
  name,
  config: loadConfigOrExit(name, configSchema),
  migrations: [],
  usesStorage: true,
  consumes: [],
  consumers: () => [],
});
