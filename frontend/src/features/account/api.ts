import type { DeleteAccountProofResponse } from '@frametext/contracts';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query/react';
import { api, freshSession } from '../../lib/api';

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

export const { useGetDeletionProofQuery, useDeleteAccountMutation } = accountApi;
