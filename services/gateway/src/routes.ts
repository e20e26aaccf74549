import type { ApiTokenRequirement } from '@frametext/service-kit';
import type { UpstreamService } from './config.js';

export type Access = 'public' | 'signed-in';
export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteEntry {
  /** Methods served; `'*'` for every method (a whole service area such as /api/auth/*). */
  methods: readonly Method[] | '*';
  /** Literal segments, `:param` for one segment, a final `*` for one or more segments. */
  path: string;
  target: UpstreamService;
  access: Access;
  /**
   * Signed-in routes a personal API token may use, and the scope it needs (`read` or `upload`); without it a
   * personal token is refused (payments). Services check the same scope again (requireUser).
   */
  apiToken?: ApiTokenRequirement;
  /** The body is a whole video inline (base64 in JSON): a larger limit, and an idle clock rather than a total one. */
  inlineVideo?: boolean;
}

/**
 * Every public endpoint of the API (and the Google-compatible /v1 ones), in one place. The first entry whose path matches wins, so the public
 * demo entries come before the signed-in `:id` ones. Paths are forwarded unchanged.
 */
export const ROUTES: readonly RouteEntry[] = [
  { methods: '*', path: '/api/auth/*', target: 'identity', access: 'public' },

  { methods: ['POST'], path: '/api/getUploadURL', target: 'upload', access: 'signed-in', apiToken: 'upload' },
  { methods: ['POST'], path: '/api/uploadComplete', target: 'upload', access: 'signed-in', apiToken: 'upload' },
  { methods: ['POST'], path: '/api/logLocalUpload', target: 'upload', access: 'signed-in', apiToken: 'upload' },

  { methods: ['GET'], path: '/api/getUploadDetails/demo', target: 'results', access: 'public' },
  { methods: ['GET'], path: '/api/getUploadDetailsOld/demo', target: 'results', access: 'public' },
  { methods: ['GET'], path: '/api/checkUploadStatus/:id', target: 'results', access: 'signed-in', apiToken: 'read' },
  { methods: ['GET'], path: '/api/getUploads', target: 'results', access: 'signed-in', apiToken: 'read' },
  { methods: ['GET'], path: '/api/getUploadDetails/:id', target: 'results', access: 'signed-in', apiToken: 'read' },
  { methods: ['GET'], path: '/api/getUploadDetailsOld/:id', target: 'results', access: 'signed-in', apiToken: 'read' },
  { methods: ['POST'], path: '/api/deleteUploads', target: 'results', access: 'signed-in', apiToken: 'upload' },
  // A person's work in a results view; on the demo too, but only signed in (signed out, the browser keeps it).
  { methods: ['GET'], path: '/api/uploads/:id/work/:view', target: 'results', access: 'signed-in', apiToken: 'read' },
  { methods: ['PUT'], path: '/api/uploads/:id/work/:view', target: 'results', access: 'signed-in', apiToken: 'upload' },
  // A results view's file (CSV, TXT, SRT, VTT, JSON) as the app's export button saves it, for scripts.
  { methods: ['GET'], path: '/api/uploads/:id/export', target: 'results', access: 'signed-in', apiToken: 'read' },
  { methods: ['GET'], path: '/api/webhooks', target: 'results', access: 'signed-in', apiToken: 'read' },
  { methods: ['POST'], path: '/api/webhooks', target: 'results', access: 'signed-in', apiToken: 'upload' },
  { methods: ['DELETE'], path: '/api/webhooks/:id', target: 'results', access: 'signed-in', apiToken: 'upload' },
  { methods: ['POST'], path: '/api/webhooks/:id/test', target: 'results', access: 'signed-in', apiToken: 'upload' },

  { methods: ['POST'], path: '/api/create-checkout-session', target: 'billing', access: 'signed-in' },
  { methods: ['GET'], path: '/api/checkout-sessions/:id', target: 'billing', access: 'signed-in' },
  { methods: ['GET'], path: '/api/getUserData', target: 'billing', access: 'signed-in', apiToken: 'read' },
  // Stripe signs the raw body; billing checks it (the body streams through untouched).
  { methods: ['POST'], path: '/api/stripe/webhook', target: 'billing', access: 'public' },
  // The simulated checkout's page, opened in a new tab without the app's token; bound to its unguessable session id.
  { methods: ['GET'], path: '/api/simulated-checkout/:id', target: 'billing', access: 'public' },
  { methods: ['POST'], path: '/api/simulated-checkout/:id/pay', target: 'billing', access: 'public' },
  { methods: ['GET'], path: '/api/config', target: 'billing', access: 'public' },

  // Google Video Intelligence's text detection for its clients (docs/video-intelligence.md): an inline video is an
  // upload (upload scope), its operation the upload's status and results (read scope). Errors in Google's shape.
  { methods: ['POST'], path: '/v1/videos:annotate', target: 'upload', access: 'signed-in', apiToken: 'upload', inlineVideo: true },
  { methods: ['GET'], path: '/v1/projects/-/locations/-/operations/:id', target: 'results', access: 'signed-in', apiToken: 'read' },
  { methods: ['GET'], path: '/v1/operations/projects/-/locations/-/operations/:id', target: 'results', access: 'signed-in', apiToken: 'read' },
];

/** Path prefixes of the route table: `/api/` for FrameText's API, `/v1/` for the Google-compatible endpoints. */
export const ROUTED_PREFIXES = ['/api/', '/v1/'] as const;
/** Where errors answer Google's body rather than FrameText's. */
export const GOOGLE_PREFIX = '/v1';

export type RouteMatch =
  | { kind: 'route'; route: RouteEntry }
  /** The path exists but not for this method. */
  | { kind: 'method-not-allowed'; allowed: Method[] }
  | { kind: 'none' };

/** Matches case-sensitively and segment by segment: `/api/getUploadDetails/DEMO` is not the public demo. */
export function pathMatches(pattern: string, path: string): boolean {
  const want = pattern.split('/');
  const got = path.split('/');
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    if (w === '*' && i === want.length - 1) return got.length > i && got.slice(i).some((s) => s !== '');
    const g = got[i];
    if (g === undefined) return false;
    if (w.startsWith(':')) {
      if (g === '') return false;
    } else if (w !== g) {
      return false;
    }
  }
  return got.length === want.length;
}

export function matchRoute(method: string, path: string, routes: readonly RouteEntry[] = ROUTES): RouteMatch {
  // HEAD is a GET without a body.
  const m = (method === 'HEAD' ? 'GET' : method) as Method;
  const allowed = new Set<Method>();
  for (const route of routes) {
    if (!pathMatches(route.path, path)) continue;
    if (route.methods === '*' || route.methods.includes(m)) return { kind: 'route', route };
    for (const x of route.methods) allowed.add(x);
  }
  return allowed.size > 0 ? { kind: 'method-not-allowed', allowed: [...allowed] } : { kind: 'none' };
}
