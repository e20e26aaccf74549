import { runMain } from '@frametext/service-kit';
import { loadConfig } from './config.js';
import { resultsService } from './service.js';

await runMain(resultsService(loadConfig()));
