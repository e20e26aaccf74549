import type { CreateApiTokenRequest, CreateApiTokenResponse, ListApiTokensResponse } from '@frametext/contracts';
import { api } from '../../lib/api';

/** Personal API tokens: identity's calls, made with this session's access token (a token cannot manage tokens). */
export const apiTokensApi = api.enhanceEndpoints({ addTagTypes: ['ApiTokens'] }).injectEndpoints({
  endpoints: (build) => ({
    listApiTokens: build.query<ListApiTokensResponse, void>({
      query: () => 'auth/api-tokens',
      providesTags: ['ApiTokens'],
    }),
    createApiToken: build.mutation<CreateApiTokenResponse, CreateApiTokenRequest>({
      query: (body) => ({ url: 'auth/api-tokens', method: 'POST', body }),
      invalidatesTags: ['ApiTokens'],
    }),
    revokeApiToken: build.mutation<null, string>({
      query: (id) => ({ url: `auth/api-tokens/${encodeURIComponent(id)}`, method: 'DELETE' }),
      invalidatesTags: ['ApiTokens'],
    }),
  }),
});

export const { useListApiTokensQuery, useCreateApiTokenMutation, useRevokeApiTokenMutation } = apiTokensApi;
