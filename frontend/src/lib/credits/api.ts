import type { CheckoutRequest, CheckoutResponse, CheckoutSession, Profile, PublicConfig } from '@frametext/contracts';
import { api } from '../api';

export const creditsApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The spec's getUserData: email, credits, subscription_tier, firstLogin. */
    getProfile: build.query<Profile, void>({ query: () => 'getUserData', providesTags: ['Profile'] }),
    /** Public figures every page shows the same way: the free-credit grant, engines and their availability, packs. */
    getPublicConfig: build.query<PublicConfig, void>({ query: () => 'config', providesTags: ['Config'] }),
    /** A payment page for one credit pack: { url } to open. */
    createCheckoutSession: build.mutation<CheckoutResponse, CheckoutRequest>({ query: (body) => ({ url: 'create-checkout-session', method: 'POST', body }) }),
    /** Where one of the user's purchases stands (the success page waits for `credited`). */
    getCheckoutSession: build.query<CheckoutSession, string>({ query: (id) => `checkout-sessions/${encodeURIComponent(id)}` }),
  }),
});

export const { useGetProfileQuery, useGetPublicConfigQuery, useCreateCheckoutSessionMutation, useGetCheckoutSessionQuery } = creditsApi;
