import type { EmailConfirmationStatus } from '@frametext/contracts';
import { api } from '../api';

/**
 * The auth calls outside the log-in pages: signing out (the navbar, the account page), and confirming the e-mail
 * address (the banner every signed-in page shows until then, and the page the mailed link opens).
 */
export const sessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    logOut: build.mutation<void, { refreshToken: string }>({ query: (body) => ({ url: 'auth/logout', method: 'POST', body }) }),
    getEmailConfirmation: build.query<EmailConfirmationStatus, void>({ query: () => 'auth/email-confirmation', providesTags: ['EmailConfirmation'] }),
    resendEmailConfirmation: build.mutation<void, void>({ query: () => ({ url: 'auth/email-confirmation', method: 'POST' }) }),
    /** The link's token; the free credits follow (billing grants them on identity's event), so the profile is read again. */
    confirmEmail: build.mutation<EmailConfirmationStatus, { token: string }>({
      query: (body) => ({ url: 'auth/email-confirmation/confirm', method: 'POST', body }),
      invalidatesTags: ['EmailConfirmation', 'Profile'],
    }),
  }),
});

export const { useLogOutMutation, useGetEmailConfirmationQuery, useResendEmailConfirmationMutation, useConfirmEmailMutation } = sessionApi;
