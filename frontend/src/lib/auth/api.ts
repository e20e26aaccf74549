import { api } from '../api';

/** The one auth call outside the log-in pages: signing out, which the navbar and the account page offer. */
export const sessionApi = api.injectEndpoints({
  endpoints: (build) => ({
    logOut: build.mutation<void, { refreshToken: string }>({ query: (body) => ({ url: 'auth/logout', method: 'POST', body }) }),
  }),
});

export const { useLogOutMutation } = sessionApi;
