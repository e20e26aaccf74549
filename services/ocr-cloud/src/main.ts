import { runMain } from '@frametext/service-kit';
import { loadConfig } from './config.js';
import { resolveGoogleAccess } from './data/google-auth.js';
import { ocrCloudService } from './service.js';

const config = loadConfig();
await runMain(ocrCloudService(config, { google: await resolveGoogleAccess(config.GOOGLE_APPLICATION_CREDENTIALS) }));
