import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import { API_OPERATIONS, buildOpenApiDocument, splitOperationKey, type DescribedEndpoint, type OpenApiDocument } from '@frametext/contracts/openapi';
import { matchRoute, ROUTES, type RouteEntry } from './routes.js';

/** Endpoints the gateway answers itself, before the route table: public, described like the others. */
export const GATEWAY_ENDPOINTS = ['GET /api/health', 'GET /api/openapi.json'] as const;
export const OPENAPI_PATH = '/api/openapi.json';

/**
 * The endpoints the gateway serves, from its route table: each method of a route, and for a whole service area
 * (`/api/auth/*`) the described operations that the route table sends there. A route with nothing described fails.
 */
export function servedEndpoints(routes: readonly RouteEntry[] = ROUTES): DescribedEndpoint[] {
  const endpoints: DescribedEndpoint[] = GATEWAY_ENDPOINTS.map((key) => ({ key, signedIn: false }));
  for (const route of routes) {
    const signedIn = route.access === 'signed-in';
    if (route.methods !== '*' && !route.path.endsWith('/*')) {
      for (const method of route.methods) endpoints.push({ key: `${method} ${route.path}`, signedIn });
      continue;
    }
    const inArea = Object.keys(API_OPERATIONS).filter((key) => {
      const { method, path } = splitOperationKey(key);
      const match = matchRoute(method, path, routes);
      return match.kind === 'route' && match.route === route;
    });
    if (inArea.length === 0) throw new Error(`the route ${route.path} has no operation described in API_OPERATIONS (packages/contracts/src/api-operations.ts)`);
    endpoints.push(...inArea.map((key) => ({ key, signedIn })));
  }
  return endpoints;
}

/** The description of everything the gateway serves; throws when the route table and the descriptions differ. */
export function openApiDocument(routes: readonly RouteEntry[] = ROUTES): OpenApiDocument {
  return buildOpenApiDocument(servedEndpoints(routes));
}

/** Serves the document, built once at start: public and cacheable for a few minutes, with an ETag for revalidation. */
export function openApiHandler(document: OpenApiDocument): RequestHandler {
  const body = JSON.stringify(document);
  const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;
  return (req, res) => {
    res.set({ 'cache-control': 'public, max-age=300', etag });
    if (req.fresh) return void res.status(304).end();
    res.type('application/json').send(body);
  };
}
