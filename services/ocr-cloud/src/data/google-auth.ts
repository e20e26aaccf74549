import { GoogleAuth, type AuthClient } from 'google-auth-library';
import { errorText } from '@frametext/service-kit';

export const GOOGLE_SCOPES = ['https://www.googleapis.com/auth/cloud-platform'];

/** Whether this worker can call Google, with what, or why not. */
export type GoogleAccess =
  | { on: true; authClient: AuthClient; /** Something to warn about at start (the first token could not be fetched). */ warning?: string }
  | { on: false; reason: string };

function text(err: unknown): string {
  return errorText(err);
}

function statusOf(err: unknown): number | undefined {
  const e = err as { status?: unknown; response?: { status?: unknown } };
  const s = e?.status ?? e?.response?.status;
  return typeof s === 'number' ? s : undefined;
}

/**
 * Finds Google credentials the usual ways: the key file named by GOOGLE_APPLICATION_CREDENTIALS, gcloud's
 * Application Default Credentials, or the metadata server on Google Cloud. Then fetches one access token: Google
 * refusing it (a revoked or malformed key) turns Cloud AI off with the reason; Google not answering only warns,
 * since the network may come back (a refused call later fails that upload with a clear reason).
 */
export async function resolveGoogleAccess(keyFile: string | undefined): Promise<GoogleAccess> {
  const auth = new GoogleAuth({ scopes: GOOGLE_SCOPES, ...(keyFile ? { keyFilename: keyFile } : {}) });
  let client: AuthClient;
  try {
    client = await auth.getClient();
  } catch (err) {
    return {
      on: false,
      reason: keyFile
        ? `the key file in GOOGLE_APPLICATION_CREDENTIALS (${keyFile}) cannot be used: ${text(err)}`
        : 'no Google credentials were found (set GOOGLE_APPLICATION_CREDENTIALS to a service-account key file)',
    };
  }
  return checkToken(client);
}

/** Fetches a token once: refused means off, unreachable means on with a warning. */
export async function checkToken(client: AuthClient): Promise<GoogleAccess> {
  try {
    await client.getAccessToken();
    return { on: true, authClient: client };
  } catch (err) {
    const status = statusOf(err);
    if (status !== undefined && status >= 400 && status < 500) return { on: false, reason: `Google refused this server's credentials: ${text(err)}` };
    return { on: true, authClient: client, warning: `the first Google access token could not be fetched (${text(err)}); trying again with each request` };
  }
}
