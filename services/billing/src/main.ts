import { runMain } from '@frametext/service-kit';
import { loadConfig } from './config.js';
import { billingService } from './service.js';

await runMain(billingService(loadConfig()));
