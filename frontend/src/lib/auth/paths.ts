/** The log-in page opens on its Sign Up tab with `?mode=signup`; every "Sign up" link uses this address. */
export const SIGN_UP_PATH = '/login?mode=signup';
