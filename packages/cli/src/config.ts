/** The CLI's settings from the environment (the one place it reads process.env). */

export const DEFAULT_URL = 'http://localhost:8080';

export interface Environment {
  /** FRAMETEXT_URL: FrameText's address. */
  url?: string;
  /** FRAMETEXT_TOKEN: a personal API token (ftpat_...). */
  token?: string;
}

export function readEnvironment(env: NodeJS.ProcessEnv = process.env): Environment {
  const url = env.FRAMETEXT_URL?.trim();
  const token = env.FRAMETEXT_TOKEN?.trim();
  return { ...(url ? { url } : {}), ...(token ? { token } : {}) };
}
