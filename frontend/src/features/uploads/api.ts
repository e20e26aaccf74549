import type { DeleteUploadsResponse, GetUploadsResponse, UploadListItem, UploadStatusResponse } from '@frametext/contracts';
import { api } from '../../lib/api';

export type UploadStatusAnswer = UploadStatusResponse['data'];

export const uploadsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The signed-in user's server uploads, newest first. */
    getUploads: build.query<UploadListItem[], void>({
      query: () => 'getUploads',
      transformResponse: (answer: GetUploadsResponse) => answer.data.uploads,
      providesTags: ['Uploads'],
    }),
    /** Deletes server uploads; local- ids never come here (they live in the browser's database). */
    deleteUploads: build.mutation<string[], string[]>({
      query: (ids) => ({ url: 'deleteUploads', method: 'POST', body: { uploads: ids, deleteUploads: true } }),
      transformResponse: (answer: DeleteUploadsResponse) => answer.data.deleted,
      invalidatesTags: ['Uploads'],
    }),
    /**
     * The list's own status check when a card that is not processed is clicked. Named apart from the wizard's
     * checkUploadStatus (endpoint names are unique across the one api) and never served from the cache.
     */
    recheckUploadStatus: build.query<UploadStatusAnswer, string>({
      query: (id) => `checkUploadStatus/${encodeURIComponent(id)}`,
      transformResponse: (answer: UploadStatusResponse) => answer.data,
      keepUnusedDataFor: 0,
    }),
  }),
});

export const { useGetUploadsQuery, useDeleteUploadsMutation, useLazyRecheckUploadStatusQuery } = uploadsApi;
