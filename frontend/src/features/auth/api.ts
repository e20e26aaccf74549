import type { AuthSession, LoginRequest, ProvidersResponse } from '@frametext/contracts';
import { api } from '../../lib/api';

export const authApi = api.injectEndpoints({
  endpoints: (build) => ({
    logIn: build.mutation<AuthSession, LoginRequest>({ query: (body) => ({ url: 'auth/login', method: 'POST', body }) }),
    signUp: build.mutation<AuthSession, LoginRequest>({ query: (body) => ({ url: 'auth/signup', method: 'POST', body }) }),
    requestPasswordReset: build.mutation<void, { email: string }>({ query: (body) => ({ url: 'auth/password-reset', method: 'POST', body }) }),
    confirmPasswordReset: build.mutation<void, { token: string; password: string }>({ query: (body) => ({ url: 'auth/password-reset/confirm', method: 'POST', body }) }),
    getProviders: build.query<ProvidersResponse, void>({ query: () => 'auth/providers' }),
  }),
});

export const { useLogInMutation, useSignUpMutation, useRequestPasswordResetMutation, useConfirmPasswordResetMutation, useGetProvidersQuery } = authApi;
