import type { Express, Request } from 'express';
import { currentContext } from '../logging/context.js';
import type { AccessTokenVerifier, VerifiedUser } from './access-tokens.js';
import { assertApiTokenAllowed, requirementOfMethod, type ApiTokenRequirement } from './api-token-scopes.js';
import { WORKLOAD_HEADER, type WorkloadCredentials } from './workload.js';

/** How a service checks who is calling: users by their access token, services by their workload token. */
export interface ServiceAuth {
  /** Present on services with signed-in routes (ServiceDefinition.authenticatesUsers). */
  users?: AccessTokenVerifier;
  workloads: WorkloadCredentials;
}

const AUTH_KEY = 'frametextAuth';
const verified = new WeakMap<Request, Promise<VerifiedUser>>();

/** Makes `auth` the one the request helpers below use for this app's requests. */
export function attachAuth(app: Express, auth: ServiceAuth): void {
  app.locals[AUTH_KEY] = auth;
}

function authOf(req: Request): ServiceAuth {
  const auth = req.app.locals[AUTH_KEY] as ServiceAuth | undefined;
  if (!auth) throw new Error('no ServiceAuth attached to this app (startService attaches it)');
  return auth;
}

export interface UserRequirements {
  /**
   * What a personal API token needs here. By default the method decides (GET and HEAD read, anything else needs
   * `upload`): the gateway checks its route table first, and this is the same rule again where the data is.
   */
  apiToken?: ApiTokenRequirement;
}

/**
 * The user whose own access token this request carries (Authorization: Bearer), verified here against the
 * JWKS and the list of ended sessions, whoever forwarded it. No token, a bad one or an ended session is a 401; a
 * personal token without the scope the request needs is a 403.
 */
export async function requireUser(req: Request, requirements: UserRequirements = {}): Promise<VerifiedUser> {
  const user = await verifiedUser(req);
  assertApiTokenAllowed(user.apiToken, requirements.apiToken ?? requirementOfMethod(req.method));
  return user;
}

function verifiedUser(req: Request): Promise<VerifiedUser> {
  let user = verified.get(req);
  if (!user) {
    const { users } = authOf(req);
    if (!users) throw new Error('this service has no signed-in routes (set authenticatesUsers in its definition)');
    user = users.verify(req.header('authorization'), 401).then((u) => {
      const context = currentContext();
      if (context) context.userId = u.userId;
      return u;
    });
    verified.set(req, user);
  }
  return user;
}

export async function requireUserId(req: Request, requirements: UserRequirements = {}): Promise<string> {
  return (await requireUser(req, requirements)).userId;
}

/** The calling service, when the request carries a workload token for `audience` from one of `callers`; else 401. */
export function requireWorkload(req: Request, audience: string, callers?: readonly string[]): string {
  return authOf(req).workloads.verify(req.header(WORKLOAD_HEADER), audience, callers);
}
