// A worker process for the crash test: the built service (dist) with the test's own queue name and schema.
import { runMain } from '@frametext/service-kit';
import { loadConfig } from '../dist/config.js';
import { ocrTesseractService } from '../dist/service.js';

await runMain(ocrTesseractService(loadConfig(), { name: process.env.OCR_TEST_NAME, dbSchema: process.env.OCR_TEST_SCHEMA }));
