import { deleteUnfinishedUploadsResponseSchema, settledUploadSchema, type DeleteUnfinishedUploadsResponse, type SettledUpload } from '@frametext/contracts';
import { CORRELATION_HEADER, correlationId, traceHeaders, unavailable, type Logger, type WorkloadCredentials } from '@frametext/service-kit';

/** The upload service's internal route that answers an upload as uploadComplete settled it. */
export const SETTLED_UPLOAD_PATH = '/internal/settled-uploads/';
/** The upload service's internal route that deletes the caller's uploads results has not heard of. */
export const DELETED_UPLOADS_PATH = '/internal/deleted-uploads';

export interface UploadServiceClient {
  /**
   * The upload as uploadComplete settled it, asked on behalf of the user whose access token is given (the upload
   * service checks it, and this service's workload token); undefined when that user has no settled upload by that
   * id. A 503 when the upload service cannot answer.
   */
  settledUpload(uploadId: string, accessToken: string): Promise<SettledUpload | undefined>;
  /**
   * Asks the upload service to delete the user's uploads among `uploadIds` that results has no record of: it cancels
   * those still open (never completed) and names those completed a moment ago. A 503 when it cannot answer.
   */
  deleteUnfinished(uploadIds: string[], accessToken: string): Promise<DeleteUnfinishedUploadsResponse>;
}

const uploadServiceUnavailable = () => unavailable('results/upload-service-unavailable', 'The upload\'s status cannot be read right now. Please try again in a moment.');
const deletionUnavailable = () => unavailable('results/upload-service-unavailable', 'Your uploads cannot be deleted right now. Please try again in a moment.');

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

    async deleteUnfinished(uploadIds, accessToken) {
      const url = new URL(DELETED_UPLOADS_PATH, opts.baseUrl).toString();
      let res: Response;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${accessToken}`,
            ...opts.credentials.headers('upload'),
            [CORRELATION_HEADER]: correlationId(),
            ...traceHeaders(),
          },
          body: JSON.stringify({ uploadIds }),
          signal: AbortSignal.timeout(opts.timeoutMs),
        });
      } catch (err) {
        opts.logger.warn({ err, url }, 'upload service unreachable or too slow; uploads it holds cannot be deleted now');
        throw deletionUnavailable();
      }
      const body: unknown = await res.json().catch(() => undefined);
      const parsed = res.ok ? deleteUnfinishedUploadsResponseSchema.safeParse(body) : undefined;
      if (!parsed?.success) {
        opts.logger.error({ status: res.status, body }, 'the upload service answered a deletion outside its contract');
        throw deletionUnavailable();
      }
      return parsed.data;
    },
  };
}
