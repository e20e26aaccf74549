import { runMain } from '@frametext/service-kit';
import { loadConfig } from './config.js';
import { frameExtractionService } from './service.js';

await runMain(frameExtractionService(loadConfig()));
