import type { LogLocalUploadRequest, LogLocalUploadResponse } from '@frametext/contracts';
import { api } from '../../lib/api';

export const localApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * POST /logLocalUpload: records the run and charges the local rate once per upload id (a repeat charges
     * nothing); 402 when the credits fall short. The balance shown everywhere is fetched again.
     */
    logLocalUpload: build.mutation<LogLocalUploadResponse['data'], LogLocalUploadRequest>({
      query: (body) => ({ url: 'logLocalUpload', method: 'POST', body }),
      transformResponse: (answer: LogLocalUploadResponse) => answer.data,
      invalidatesTags: ['Profile', 'Uploads'],
    }),
  }),
});

export const { useLogLocalUploadMutation } = localApi;
