import { settledUploadSchema, type SettledUpload } from '@frametext/contracts';
import { CORRELATION_HEADER, correlationId, traceHeaders, unavailable, type Logger, type WorkloadCredentials } from '@frametext/service-kit';

/** The upload service's internal route that answers an upload as uploadComplete settled it. */
export const SETTLED_UPLOAD_PATH = '/internal/settled-uploads/';

export interface UploadServiceClient {
  /**
   * The upload as uploadComplete settled it, asked on behalf of the user whose access token is given (the upload
   * service checks it, and this service's workload token); undefined when that user has no settled upload by that
   * id. A 503 when the upload service cannot answer.
   */
  settledUpload(uploadId: string, accessToken: string): Promise<SettledUpload | undefined>;
}

const uploadServiceUnavailable = () => unavailable('results/upload-service-unavailable', 'The upload\'s status cannot be read right now. Please try again in a moment.');

export function httpUploadServiceClient(opts: { baseUrl: string; timeoutMs: number; logger: Logger; credentials: WorkloadCredentials }): UploadServiceClient {
  return {
    async settledUpload(uploadId, accessToken) {
      const url = new URL(SETTLED_UPLOAD_PATH + encodeURIComponent(uploadId), opts.baseUrl).toString();
      let res: Response;
      try {
        res = await fetch(url, {
          headers: { authorization: `Bearer ${accessToken}`, ...opts.credentials.headers('upload'), [CORRELATION_HEADER]: correlationId(), ...traceHeaders() },
          signal: AbortSignal.timeout(opts.timeoutMs),
        });
      } catch (err) {
        opts.logger.warn({ err, url, uploadId }, 'upload service unreachable or too slow; the upload\'s status is unknown');
        throw uploadServiceUnavailable();
      }
      const body: unknown = await res.json().catch(() => undefined);
      if (res.status === 404) return undefined;
      const parsed = res.ok ? settledUploadSchema.safeParse(body) : undefined;
      if (!parsed?.success) {
        opts.logger.error({ status: res.status, body, uploadId }, 'the upload service answered a settled upload outside its contract');
        throw uploadServiceUnavailable();
      }
      return parsed.data;
    },
  };
}
