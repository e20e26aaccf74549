import type { OpenApiDocument } from '@frametext/contracts/openapi';
import { api } from '../../../lib/api';

export const apiDocsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The gateway's OpenAPI description of the public API, which the reference page renders. */
    getApiDescription: build.query<OpenApiDocument, void>({ query: () => 'openapi.json' }),
  }),
});

export const { useGetApiDescriptionQuery } = apiDocsApi;
