import type { GetUploadUrlRequest, GetUploadUrlResponse, LinkUploadRequestInput, UploadCompleteResponse, UploadStatusResponse } from '@frametext/contracts';
import { api } from '../../lib/api';
import { traceHeaders } from '../../lib/traceContext';

/** A video by link, as the wizard asks for it (the server fetches it). */
export type LinkUploadRequestBody = LinkUploadRequestInput & { kind: 'link' };

/** The calls of one upload carry its trace id, so the server sees the upload, start to end, as one trace. */
type Traced<T> = T & { traceId: string };

export const uploadApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Validates the request, holds its credits, and answers one presigned PUT URL per object. */
    getUploadURL: build.mutation<GetUploadUrlResponse, Traced<{ request: GetUploadUrlRequest | LinkUploadRequestBody }>>({
      query: ({ request, traceId }) => ({ url: 'getUploadURL', method: 'POST', body: request, headers: traceHeaders(traceId) }),
    }),
    /** The bytes are in: the server checks them and starts the pipeline. Credits are now held and a card exists. */
    uploadComplete: build.mutation<UploadCompleteResponse, Traced<{ uploadID: string }>>({
      query: ({ uploadID, traceId }) => ({ url: 'uploadComplete', method: 'POST', body: { uploadID }, headers: traceHeaders(traceId) }),
      invalidatesTags: ['Uploads', 'Profile'],
    }),
    /** Polled every 2.5 s in step 2; it answers from the moment uploadComplete has (`uploaded` at first). */
    checkUploadStatus: build.query<UploadStatusResponse['data'], string>({
      query: (uploadID) => `checkUploadStatus/${encodeURIComponent(uploadID)}`,
      transformResponse: (answer: UploadStatusResponse) => answer.data,
      keepUnusedDataFor: 0,
    }),
  }),
});

export type UploadStatus = UploadStatusResponse['data'];

export const { useGetUploadURLMutation, useUploadCompleteMutation, useCheckUploadStatusQuery } = uploadApi;
