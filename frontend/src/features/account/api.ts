import type { AuthSession, DeleteAccountProofResponse, PasswordChangeRequest, ReauthenticationResponse } from '@frametext/contracts';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query/react';
import { api, freshSession } from '../../lib/api';
import { signedIn } from '../../lib/auth/authSlice';
import { sessionFromAnswer } from '../../lib/auth/session';

/** What a call answers when there is no session to send (signed out in another tab meanwhile). */
const signedOutError: FetchBaseQueryError = {
  status: 401,
  data: { error: { code: 'auth/invalid-refresh-token', message: 'Your session has expired or was signed out. Please log in again.' } },
};

/** Deleting the account: identity's calls, proven by this session's refresh token (read when the call goes out). */
export const accountApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** What deleting the account needs now: the password, nothing more (a recent Google sign-in), or a new sign-in. */
    getDeletionProof: build.query<DeleteAccountProofResponse, void>({
      async queryFn(_arg, queryApi, _extra, baseQuery) {
        const session = await freshSession(queryApi);
        if (!session) return { error: signedOutError };
        const result = await baseQuery({ url: 'auth/delete-account/proof', method: 'POST', body: { refreshToken: session.refreshToken } });
        return result.error ? { error: result.error } : { data: result.data as DeleteAccountProofResponse };
      },
      keepUnusedDataFor: 0,
    }),
    /** Deletes the signed-in person's account, proven by this session's refresh token (read when the call goes out). */
    deleteAccount: build.mutation<null, { password?: string }>({
      async queryFn({ password }, queryApi, _extra, baseQuery) {
        const session = await freshSession(queryApi);
        if (!session) return { error: signedOutError };
        const body = password ? { refreshToken: session.refreshToken, password } : { refreshToken: session.refreshToken };
        const result = await baseQuery({ url: 'auth/delete-account', method: 'POST', body });
        return result.error ? { error: result.error } : { data: null };
      },
    }),
  }),
});

/**
 * Steps only the owner may take, with this session's access token: what creating a token or changing the password
 * needs now, and changing the password. A change ends every session and API token of the account, this session's
 * too: its answer, a new session, replaces this one before the token list is fetched again.
 */
export const ownerStepsApi = api.enhanceEndpoints({ addTagTypes: ['ApiTokens', 'Reauthentication'] }).injectEndpoints({
  endpoints: (build) => ({
    getReauthentication: build.query<ReauthenticationResponse, void>({
      query: () => 'auth/reauthentication',
      providesTags: ['Reauthentication'],
      keepUnusedDataFor: 0,
    }),
    changePassword: build.mutation<AuthSession, PasswordChangeRequest>({
      async queryFn(body, queryApi, _extra, baseQuery) {
        const result = await baseQuery({ url: 'auth/password-change', method: 'POST', body });
        if (result.error) return { error: result.error };
        const answer = result.data as AuthSession;
        queryApi.dispatch(signedIn(sessionFromAnswer(answer)));
        return { data: answer };
      },
      invalidatesTags: ['ApiTokens', 'Reauthentication'],
    }),
  }),
});

export const { useGetDeletionProofQuery, useDeleteAccountMutation } = accountApi;
export const { useGetReauthenticationQuery, useChangePasswordMutation } = ownerStepsApi;
