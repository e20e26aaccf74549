import { runMain } from '@frametext/service-kit';
import { loadConfig } from './config.js';
import { ocrTesseractService } from './service.js';

await runMain(ocrTesseractService(loadConfig()));
