import type { UploadDetailsOldResponse, UploadDetailsResponse } from '@frametext/contracts';
import { api } from '../../lib/api';

export type DetailsMode = 'numerical' | 'captions' | 'presentation' | 'scroll';

/** The spec's load timeouts: 180 s for the tabbed view's details, 300 s for the older numerical screen's. */
export const DETAILS_TIMEOUT_MS = 180_000;
export const DETAILS_OLD_TIMEOUT_MS = 300_000;

export const resultsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** GET /getUploadDetails/:id?mode=...; the id `demo` is public and needs no sign-in. */
    getUploadDetails: build.query<UploadDetailsResponse, { id: string; mode?: DetailsMode }>({
      query: ({ id, mode }) => ({ url: `getUploadDetails/${encodeURIComponent(id)}`, params: mode ? { mode } : undefined, timeout: DETAILS_TIMEOUT_MS }),
      providesTags: (_answer, _error, { id }) => [{ type: 'Upload', id }],
    }),
    /** GET /getUploadDetailsOld/:id?mode=numerical: the older numerical screen's call. */
    getUploadDetailsOld: build.query<UploadDetailsOldResponse, { id: string }>({
      query: ({ id }) => ({ url: `getUploadDetailsOld/${encodeURIComponent(id)}`, params: { mode: 'numerical' }, timeout: DETAILS_OLD_TIMEOUT_MS }),
      providesTags: (_answer, _error, { id }) => [{ type: 'Upload', id }],
    }),
  }),
});

export const { useGetUploadDetailsQuery, useGetUploadDetailsOldQuery } = resultsApi;
