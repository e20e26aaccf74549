// A worker process for the crash test: the service's sources (run with RUN_TYPESCRIPT_SOURCES) with the test's
// own queue name and schema.
import { runMain } from '@frametext/service-kit';
import { loadConfig } from '../src/config.js';
import { ocrTesseractService } from '../src/service.js';

await runMain(ocrTesseractService(loadConfig(), { name: process.env.OCR_TEST_NAME, dbSchema: process.env.OCR_TEST_SCHEMA }));
