import type { KeptWorkResponse, KeptWorkView, SaveKeptWorkRequest, SaveKeptWorkResponse, UploadDetailsOldResponse, UploadDetailsResponse } from '@frametext/contracts';
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
    /** GET /uploads/:id/work/:view: the person's kept work in one view (never cached: another tab may have saved). */
    getKeptWork: build.query<KeptWorkResponse, { id: string; view: KeptWorkView }>({
      query: ({ id, view }) => `uploads/${encodeURIComponent(id)}/work/${view}`,
      keepUnusedDataFor: 0,
    }),
    /** PUT /uploads/:id/work/:view; keepalive lets a save started as the page goes away finish. */
    saveKeptWork: build.mutation<SaveKeptWorkResponse, { id: string; view: KeptWorkView; body: SaveKeptWorkRequest; keepalive: boolean }>({
      query: ({ id, view, body, keepalive }) => ({ url: `uploads/${encodeURIComponent(id)}/work/${view}`, method: 'PUT', body, keepalive }),
    }),
  }),
});

export const { useGetUploadDetailsQuery, useGetUploadDetailsOldQuery } = resultsApi;
