import { AppError, errorText, traceHeaders, type WorkloadCredentials } from '@frametext/service-kit';

/** identity did not answer (down, slow, or an answer that is not one): not a verdict on anything the client sent. */
export class IdentityUnavailableError extends Error {}

/**
 * A workload call from the gateway to identity. identity's refusal of the client's own credential (401 or 403 with a
 * code and a message) comes back as that AppError, for the client; anything else that is not a 2xx is
 * IdentityUnavailableError.
 */
export async function postToIdentity<T>(url: string, payload: unknown, opts: { credentials: WorkloadCredentials; timeoutMs: number; parse: (body: unknown) => T }): Promise<T> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...opts.credentials.headers('identity'), ...traceHeaders() },
      body: JSON.stringify(payload),
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
  } catch (err) {
    throw new IdentityUnavailableError(`${url}: ${errorText(err)}`, { cause: err });
  }
  const body: unknown = await res.json().catch(() => undefined);
  if (res.ok) return opts.parse(body);
  const error = (body as { error?: { code?: unknown; message?: unknown } } | undefined)?.error;
  if ((res.status === 401 || res.status === 403) && typeof error?.code === 'string' && typeof error.message === 'string') {
    throw new AppError(res.status, error.code, error.message);
  }
  throw new IdentityUnavailableError(`${url} answered ${res.status}`);
}
