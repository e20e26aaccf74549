// The OpenAPI description of the public API: generated from the zod contracts, covering exactly the
// gateway's route table, valid OpenAPI 3.1, and saying what the server really accepts. Real answers are checked
// against it at the end of pipeline.test.ts.
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { getUploadUrlRequestSchema } from '@frametext/contracts';
import { API_OPERATIONS, buildOpenApiDocument, openApiPath } from '@frametext/contracts/openapi';
import { GATEWAY_ENDPOINTS, openApiDocument, servedEndpoints } from '../services/gateway/src/openapi.js';
import { ROUTES, type RouteEntry } from '../services/gateway/src/routes.js';
import { openApiChecker } from './support/openapi-check.js';

const doc = openApiDocument();
const checker = openApiChecker(doc);
const methodsAt = (path: string) => Object.keys(doc.paths[openApiPath(path)] ?? {}).map((m) => m.toUpperCase());

describe('the OpenAPI description', () => {
  it('has every route of the gateway, with its methods and whether it needs a token', () => {
    for (const route of ROUTES) {
      if (route.methods === '*') {
        // A whole service area: its operations are the described paths under it, none of them needing the gateway's token.
        const prefix = route.path.slice(0, -1);
        const inArea = Object.entries(doc.paths).filter(([p]) => p.startsWith(prefix));
        expect(inArea.length, route.path).toBeGreaterThan(0);
        for (const [, item] of inArea) for (const op of Object.values(item)) expect(op.security).toEqual(route.access === 'public' ? [] : [{ bearerAuth: [] }]);
        continue;
      }
      expect(methodsAt(route.path), route.path).toEqual(expect.arrayContaining([...route.methods]));
      for (const method of route.methods) {
        const op = doc.paths[openApiPath(route.path)]![method.toLowerCase()]!;
        expect(op.security, `${method} ${route.path}`).toEqual(route.access === 'public' ? [] : [{ bearerAuth: [] }]);
        expect(op.summary.length).toBeGreaterThan(10);
      }
    }
    for (const key of GATEWAY_ENDPOINTS) expect(methodsAt(key.split(' ')[1]!)).toContain(key.split(' ')[0]);
    // Nothing else: each operation is one the gateway serves.
    const described = Object.entries(doc.paths).flatMap(([p, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${p}`));
    expect(described.sort()).toEqual(servedEndpoints().map((e) => `${e.key.split(' ')[0]} ${openApiPath(e.key.split(' ')[1]!)}`).sort());
  });

  it('cannot be built when a route has no description, or a description no route', () => {
    const extra: RouteEntry = { methods: ['GET'], path: '/api/getUploadThumbnail/:id', target: 'results', access: 'signed-in' };
    expect(() => openApiDocument([...ROUTES, extra])).toThrow('GET /api/getUploadThumbnail/:id is served but has no entry in API_OPERATIONS');
    const area: RouteEntry = { methods: '*', path: '/api/webhooks/*', target: 'billing', access: 'signed-in' };
    expect(() => openApiDocument([...ROUTES, area])).toThrow('the route /api/webhooks/* has no operation described');
    const withoutConfig = ROUTES.filter((r) => r.path !== '/api/config');
    expect(() => openApiDocument(withoutConfig)).toThrow('GET /api/config is described in API_OPERATIONS but no route serves it');
    expect(() => buildOpenApiDocument([{ key: 'GET /api/health', signedIn: false }])).toThrow('POST /api/getUploadURL is described');
  });

  it('is a valid OpenAPI 3.1 document whose schemas all compile as JSON Schema 2020-12', async () => {
    const result = await new Validator().validate(structuredClone(doc) as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toMatch(/^3\.1\./);
    for (const name of Object.keys(doc.components.schemas)) expect(() => checker.component(name), name).not.toThrow();
  });

  it('gives examples that the description and the server both accept', () => {
    for (const [key, op] of Object.entries(API_OPERATIONS)) {
      if (op.body?.example === undefined) continue;
      expect(checker.component(op.body.name)(op.body.example), key).toEqual([]);
      expect(op.body.schema.safeParse(op.body.example).success, key).toBe(true);
    }
  });

  it("documents the spec's upload requests: photos by capture times without files, a video without kind, frames by timestamps", () => {
    const request = checker.component('GetUploadUrlRequest');
    const accepted = (body: unknown) => getUploadUrlRequestSchema.safeParse(body).success;
    const specPhotos = { uploadName: 'Whiteboards', isVideo: false, mimeType: 'image/jpeg', timestamps: [1732550400000, 1732550460000], ocrType: 'server', mediaContent: 'numerical', sortPreference: 'timestamp', originalLanguage: null, targetLanguage: null };
    const specVideo = { uploadName: 'Charging', isVideo: true, mimeType: 'video/mp4', duration: 20, targetFrameRate: 1 / 3, ocrType: 'server', mediaContent: 'numerical', sortPreference: null };
    const specFrames = { uploadName: 'Frames', isVideo: true, mimeType: 'image/jpeg', timestamps: ['0000000000', '0000003000'], targetFrameRate: 1 / 3, ocrType: 'server', mediaContent: 'numerical' };
    for (const body of [specPhotos, specVideo, specFrames]) {
      expect(request(body), JSON.stringify(body)).toEqual([]);
      expect(accepted(body), JSON.stringify(body)).toBe(true);
    }
    // What neither accepts: photos with neither files nor capture times, a video without its duration.
    const { timestamps: _t, ...photosWithoutTimes } = specPhotos;
    const { duration: _d, ...videoWithoutDuration } = specVideo;
    for (const body of [photosWithoutTimes, videoWithoutDuration]) {
      expect(request(body), JSON.stringify(body)).not.toEqual([]);
      expect(accepted(body), JSON.stringify(body)).toBe(false);
    }
  });

  it('reads a colon inside a segment as part of the path (Google\'s videos:annotate), one opening a segment as a parameter', () => {
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/videos:annotate', '/v1/projects/-/locations/-/operations/{id}', '/api/checkUploadStatus/{id}']));
    expect(doc.paths['/v1/videos:annotate']!.post!.operationId).toBe('postV1VideosAnnotate');
    expect(doc.paths['/v1/videos:annotate']!.post!.parameters).toBeUndefined();
    expect(doc.paths['/api/checkUploadStatus/{id}']!.get!.operationId).toBe('getCheckUploadStatusById');
  });

  it('describes the error body every service answers with, and offers it for each operation', () => {
    const error = checker.component('Error');
    expect(error({ error: { code: 'request/invalid-body', message: 'uploadName: Please name your upload before uploading.', correlationId: 'c-1', details: [{ path: 'uploadName' }] } })).toEqual([]);
    expect(error({ message: 'no code' })).not.toEqual([]);
    for (const [path, item] of Object.entries(doc.paths)) {
      // The Google-compatible endpoints answer Google's error body, as its clients read it.
      const body = path.startsWith('/v1/') ? 'GoogleError' : 'Error';
      for (const op of Object.values(item)) expect(op.responses.default?.content?.['application/json']?.schema, path).toEqual({ $ref: `#/components/schemas/${body}` });
    }
    const google = checker.component('GoogleError');
    expect(google({ error: { code: 400, message: 'FrameText detects text only.', status: 'INVALID_ARGUMENT', details: [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'annotate/feature-not-supported', domain: 'frametext' }] } })).toEqual([]);
    expect(google({ error: { code: 'annotate/x', message: 'm' } })).not.toEqual([]);
  });

  it('is what the pipeline check holds answers to: a wrong field, an unknown route or a missing body is reported', () => {
    const status = { data: { uploadID: 'u-1', status: 'processing', framesDone: 2, framesTotal: 4, failureReason: null } };
    const call = { method: 'GET', route: '/checkUploadStatus/u-1', status: 200, contentType: 'application/json; charset=utf-8', body: status };
    expect(checker.problems(call)).toEqual([]);
    expect(checker.problems({ ...call, body: { data: { ...status.data, status: 'done' } } }).join()).toContain('/data/status must be equal to one of the allowed values');
    expect(checker.problems({ ...call, body: { data: { ...status.data, extra: 1 } } }).join()).toContain('must NOT have additional properties');
    expect(checker.problems({ ...call, route: '/checkUploadStatus' })).toEqual(['GET /checkUploadStatus → 200: no operation in the description']);
    expect(checker.problems({ ...call, status: 404, body: { error: { code: 'results/not-found', message: 'No such upload.' } } })).toEqual([]);
    expect(checker.problems({ ...call, status: 404, body: { message: 'No such upload.' } })).not.toEqual([]);
    // The demo's literal path wins over the signed-in template.
    expect(checker.operationOf('GET', '/getUploadDetails/demo?mode=numerical')).toBe('/api/getUploadDetails/demo');
    expect(checker.operationOf('GET', '/getUploadDetails/abc')).toBe('/api/getUploadDetails/{id}');
    // An accepted request body is held to the request schema too.
    const upload = { method: 'POST', route: '/getUploadURL', status: 200, contentType: 'application/json', body: { urls: ['http://x/1'], uploadID: 'u-1' } };
    expect(checker.problems({ ...upload, requestBody: { uploadName: 'A', isVideo: true, mimeType: 'video/mp4', duration: 5 } })).toEqual([]);
    expect(checker.problems({ ...upload, requestBody: { uploadName: 'A', isVideo: 'yes' } })).not.toEqual([]);
  });
});
