import { runMain } from '@frametext/service-kit';
import { loadConfig } from './config.js';
import { uploadService } from './service.js';

await runMain(uploadService(loadConfig()));
