import { runMain } from '@frametext/service-kit';
import { loadConfig } from './config.js';
import { identityService } from './service.js';

await runMain(identityService(loadConfig()));
