import type { UploadDetailsResponse } from '@frametext/contracts';
import { api } from '../../lib/api';

export const landingApi = api.injectEndpoints({
  endpoints: (build) => ({
    /**
     * The public demo's results, fetched from the landing page so the demo opens with its data in hand
     * (handed over as navigation state `demoData`). The demo page fetches it itself when it arrives without.
     */
    getLandingDemo: build.query<UploadDetailsResponse, void>({ query: () => 'getUploadDetails/demo' }),
  }),
});

export const { useLazyGetLandingDemoQuery } = landingApi;
