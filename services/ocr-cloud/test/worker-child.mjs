// A worker process for the crash test: the service's sources (run with RUN_TYPESCRIPT_SOURCES) with the test's
// queue name and schema, calling the test's fake Google with a fixed token.
import { OAuth2Client } from 'google-auth-library';
import { runMain } from '@frametext/service-kit';
import { loadConfig } from '../src/config.js';
import { ocrCloudService } from '../src/service.js';

const authClient = new OAuth2Client();
authClient.setCredentials({ access_token: 'crash-test-token', expiry_date: Date.now() + 3_600_000 });
await runMain(ocrCloudService(loadConfig(), { name: process.env.OCR_TEST_NAME, dbSchema: process.env.OCR_TEST_SCHEMA, google: { on: true, authClient } }));
