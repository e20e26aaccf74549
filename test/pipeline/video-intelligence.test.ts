// Google Video Intelligence's text detection served by FrameText, driven by Google's own Node client
// (@google-cloud/video-intelligence, its REST transport) against the running stack, with a FrameText API token: a
// generated video's texts and times come back as they are on screen. The raw answers are held to the JSON mapping
// of the package's own protos, and every refusal is a 4xx in Google's error shape.
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VideoIntelligenceServiceClient, protos } from '@google-cloud/video-intelligence';
import { makeSlidesVideo, type GeneratedVideo } from '@frametext/sample-media';
import { protoJsonProblems } from '../support/proto-json.js';
import { useStack } from '../support/use-stack.js';

type AnnotateVideoResponse = protos.google.cloud.videointelligence.v1.IAnnotateVideoResponse;
type Duration = protos.google.protobuf.IDuration | null | undefined;
const { Feature } = protos.google.cloud.videointelligence.v1;

const dir = mkdtempSync(path.join(tmpdir(), 'video-intelligence-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const stack = useStack();

// google-auth-library, as google-gax (the client's transport) depends on it: the auth client a migrating script uses.
const gaxRequire = createRequire(createRequire(createRequire(import.meta.url).resolve('@google-cloud/video-intelligence')).resolve('google-gax'));
const { OAuth2Client } = gaxRequire('google-auth-library') as {
  OAuth2Client: new () => { setCredentials(c: { access_token: string }): void; fetch(url: string, init: { method?: string }): Promise<unknown> };
};

/** A person with a personal API token of the scope. */
async function personWithToken(scope: 'read' | 'upload') {
  const person = await stack.signUp();
  const res = await stack.api('POST', '/auth/api-tokens', { name: `video intelligence ${scope}`, scope, password: person.password }, person.token);
  expect(res.status).toBe(201);
  return { ...person, apiToken: res.body.token as string };
}

/** Google's client pointed at the gateway, signing with a FrameText token; `requests` lists what it calls. */
function googleClient(token: string) {
  const auth = new OAuth2Client();
  auth.setCredentials({ access_token: token });
  const requests: string[] = [];
  const fetchWithAuth = auth.fetch.bind(auth);
  auth.fetch = (url, init) => {
    const { pathname } = new URL(url);
    requests.push(`${init.method ?? 'GET'} ${pathname}`);
    return fetchWithAuth(url, init);
  };
  const client = new VideoIntelligenceServiceClient({ fallback: true, protocol: 'http', apiEndpoint: '127.0.0.1', port: Number(new URL(stack.base).port), authClient: auth as never });
  return { client, requests };
}

/** Google's client with the least auth client its REST transport takes: request headers, and a fetch that adds them. */
function googleClientWithFetch(token: string) {
  const authClient = {
    getRequestHeaders: async () => new Headers({ authorization: `Bearer ${token}` }),
    async fetch(url: string, init: { method?: string; headers?: Headers; body?: string | Buffer; signal?: AbortSignal }) {
      const headers = new Headers(init.headers);
      for (const [name, value] of await authClient.getRequestHeaders()) headers.set(name, value);
      return fetch(url, { method: init.method, headers, body: init.body, signal: init.signal });
    },
  };
  return new VideoIntelligenceServiceClient({ fallback: true, protocol: 'http', apiEndpoint: '127.0.0.1', port: Number(new URL(stack.base).port), authClient: authClient as never });
}

const seconds = (d: Duration) => Number(d?.seconds ?? 0) + (d?.nanos ?? 0) / 1e9;
const words = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim().toUpperCase();

async function googleCall(method: string, route: string, token: string | undefined, body?: unknown) {
  const res = await fetch(`${stack.base}${route}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** A refusal in Google's shape: its HTTP status, canonical status, FrameText's reason; answers the message. */
function expectGoogleError(res: { status: number; body: any }, status: number, canonical: string, reason?: string): string {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error).toMatchObject({ code: status, status: canonical });
  expect(res.body.error.message).toEqual(expect.any(String));
  if (reason) expect(res.body.error.details).toEqual([{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason, domain: 'frametext' }]);
  return res.body.error.message as string;
}

describe('Google Video Intelligence text detection', () => {
  // One word a slide, 2 s each at the same place: how the engine cuts a line into runs is not what is tested here.
  const SLIDES = [['WELCOME'], ['FRAMETEXT'], ['GOODBYE']];
  let video: GeneratedVideo;
  let owner: Awaited<ReturnType<typeof personWithToken>>;
  let operationName = '';
  let response: AnnotateVideoResponse;
  let requests: string[] = [];

  beforeAll(async () => {
    video = await makeSlidesVideo({ dir, slides: SLIDES, secondsPerSlide: 2, width: 640, height: 360, name: 'slides.mp4' });
    owner = await personWithToken('upload');
  });

  it('answers Google’s own client: the texts of a generated video, each with its time on screen', async () => {
    const google = googleClient(owner.apiToken);
    const [operation] = await google.client.annotateVideo({
      inputContent: (await readFile(video.path)).toString('base64'),
      features: [Feature.TEXT_DETECTION],
      videoContext: { textDetectionConfig: { languageHints: ['en-US'] } },
    });
    operationName = operation.name!;
    expect(operationName).toMatch(/^projects\/-\/locations\/-\/operations\/[0-9a-f-]{36}$/);
    [response] = (await operation.promise()) as [AnnotateVideoResponse, ...unknown[]];
    requests = google.requests;
    // What the client really called: the annotate method, then its operation by name until done.
    expect(requests[0]).toBe('POST /v1/videos:annotate');
    expect(new Set(requests.slice(1))).toEqual(new Set([`GET /v1/${operationName}`]));

    expect(response.annotationResults).toHaveLength(1);
    const annotations = response.annotationResults![0]!.textAnnotations ?? [];
    const interval = 1;
    for (const truth of video.truth) {
      const text = truth.texts[0]!;
      const found = annotations.find((a) => words(a.text) === text);
      expect(found, `${text} in ${JSON.stringify(annotations.map((a) => a.text))}`).toBeDefined();
      // One text on screen for 2 s: one segment spanning it, within one frame interval of the truth.
      expect(found!.segments).toHaveLength(1);
      const segment = found!.segments![0]!;
      expect(Math.abs(seconds(segment.segment!.startTimeOffset) - truth.startS), `start of ${text}`).toBeLessThanOrEqual(interval);
      expect(Math.abs(seconds(segment.segment!.endTimeOffset) - truth.endS), `end of ${text}`).toBeLessThanOrEqual(interval);
      expect(segment.confidence).toBeGreaterThan(0.5);
      expect(segment.confidence).toBeLessThanOrEqual(1);
      expect(segment.frames!.length).toBeGreaterThanOrEqual(2);
      for (const frame of segment.frames!) {
        const t = seconds(frame.timeOffset);
        expect(t).toBeGreaterThanOrEqual(truth.startS);
        expect(t).toBeLessThan(truth.endS);
        const vertices = frame.rotatedBoundingBox!.vertices!;
        expect(vertices).toHaveLength(4);
        for (const v of vertices) {
          expect(v.x).toBeGreaterThanOrEqual(0);
          expect(v.x).toBeLessThanOrEqual(1);
          expect(v.y).toBeGreaterThanOrEqual(0);
          expect(v.y).toBeLessThanOrEqual(1);
        }
        // The slides' titles sit in the top quarter of the frame, from 90 px of 1280 (7%) on the left.
        expect(Math.min(...vertices.map((v) => v.x!))).toBeCloseTo(0.07, 1);
        expect(Math.max(...vertices.map((v) => v.y!))).toBeLessThan(0.25);
      }
    }
  });

  it('answers the operation in Google’s JSON mapping, at both of its addresses, and as the gvi export', async () => {
    const op = await googleCall('GET', `/v1/${operationName}?$alt=json%3Benum-encoding=int`, owner.apiToken);
    expect(op.status).toBe(200);
    expect(protoJsonProblems('google.longrunning.Operation', op.body)).toEqual([]);
    expect(op.body).toMatchObject({
      name: operationName,
      done: true,
      metadata: { '@type': 'type.googleapis.com/google.cloud.videointelligence.v1.AnnotateVideoProgress', annotationProgress: [{ progressPercent: 100, feature: 7 }] },
      response: { '@type': 'type.googleapis.com/google.cloud.videointelligence.v1.AnnotateVideoResponse' },
    });
    // A misspelt field would fail the check, where protobufjs' fromObject would drop it.
    const misspelt = structuredClone(op.body);
    misspelt.response.annotationResults[0].textAnnotation = misspelt.response.annotationResults[0].textAnnotations;
    expect(protoJsonProblems('google.longrunning.Operation', misspelt).join()).toMatch(/has no field textAnnotation\b/);

    const other = await googleCall('GET', `/v1/operations/${operationName}`, owner.apiToken);
    expect(other.status).toBe(200);
    expect(other.body.response).toEqual(op.body.response);
    expect(other.body.metadata.annotationProgress[0].feature).toBe('TEXT_DETECTION');

    const uploadId = operationName.split('/').at(-1)!;
    const exported = await fetch(`${stack.base}/api/uploads/${uploadId}/export?format=gvi`, { headers: { authorization: `Bearer ${owner.apiToken}` } });
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toBe('application/json');
    expect(exported.headers.get('content-disposition')).toMatch(/^attachment; filename="videos-annotate .*-video-intelligence\.json"$/);
    const file = await exported.json();
    expect(protoJsonProblems('google.cloud.videointelligence.v1.AnnotateVideoResponse', file)).toEqual([]);
    const { '@type': _type, ...fromOperation } = op.body.response;
    expect(file).toEqual(fromOperation);
  });

  it('is an ordinary upload of the caller: listed, charged for its frames, and named again by inputUri', async () => {
    const uploadId = operationName.split('/').at(-1)!;
    const status = await stack.api('GET', `/checkUploadStatus/${uploadId}`, undefined, owner.apiToken);
    expect(status.body.data).toMatchObject({ status: 'processed', charged: { framesRead: video.durationSeconds } });
    const listed = await stack.api('GET', '/getUploads', undefined, owner.apiToken);
    expect(listed.body.data.uploads.map((u: { id: string }) => u.id)).toContain(uploadId);

    const again = await googleCall('POST', '/v1/videos:annotate', owner.apiToken, { input_uri: `frametext://uploads/${uploadId}`, features: ['TEXT_DETECTION'] });
    expect(again).toEqual({ status: 200, body: { name: operationName } });
  });

  it('refuses what it cannot do with a 4xx in Google’s error shape, through Google’s client too', async () => {
    const unsupported = { inputContent: Buffer.from('x'), features: [Feature.LABEL_DETECTION] };
    // With google-auth-library's client, gaxios throws on the 400 before the client reads it: Google's body is in its message.
    const viaGaxios = await googleClient(owner.apiToken)
      .client.annotateVideo(unsupported)
      .then(
        () => undefined,
        (err: { status?: number; message: string }) => err,
      );
    expect(viaGaxios?.status).toBe(400);
    expect(JSON.parse(viaGaxios!.message)).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT', message: expect.stringMatching(/^FrameText detects text only: LABEL_DETECTION is not supported/) } });
    // With an auth client that fetches without throwing, the client decodes the body itself: google.rpc.Code
    // INVALID_ARGUMENT, FrameText's sentence, and its code as the ErrorInfo reason.
    const refused = await googleClientWithFetch(owner.apiToken)
      .annotateVideo(unsupported)
      .then(
        () => undefined,
        (err: { code: number; message: string; reason?: string; domain?: string }) => err,
      );
    expect(refused).toMatchObject({ code: 3, reason: 'annotate/feature-not-supported', domain: 'frametext' });
    expect(refused!.message).toMatch(/FrameText detects text only: LABEL_DETECTION is not supported/);

    const annotate = (body: unknown, token = owner.apiToken) => googleCall('POST', '/v1/videos:annotate', token, body);
    expectGoogleError(await annotate({ inputContent: 'AAAA' }), 400, 'INVALID_ARGUMENT', 'annotate/feature-required');
    expectGoogleError(await annotate({ inputContent: 'not base64!', features: ['TEXT_DETECTION'] }), 400, 'INVALID_ARGUMENT', 'annotate/invalid-base64');
    const notVideo = await annotate({ inputContent: Buffer.from('just some text, not a video').toString('base64'), features: ['TEXT_DETECTION'] });
    expect(expectGoogleError(notVideo, 400, 'INVALID_ARGUMENT', 'upload/invalid-media')).toBe('inputContent is not a video: its content is not MP4 or MOV.');
    expectGoogleError(await annotate({ inputUri: 'gs://bucket/video.mp4', features: ['TEXT_DETECTION'] }), 400, 'INVALID_ARGUMENT', 'annotate/unsupported-input-uri');
    expectGoogleError(await annotate({ inputContent: 'AAAA', features: ['TEXT_DETECTION'], outputUri: 'gs://bucket/out.json' }), 400, 'INVALID_ARGUMENT', 'annotate/output-uri-not-supported');
    expectGoogleError(await annotate({ inputContent: 'AAAA', features: ['TEXT_DETECTION'], videoContext: { textDetectionConfig: { languageHints: ['tlh'] } } }), 400, 'INVALID_ARGUMENT', 'annotate/language-not-supported');
    expectGoogleError(await annotate({ inputContent: 'AAAA', features: ['TEXT_DETECTION'], colour: 'red' }), 400, 'INVALID_ARGUMENT', 'request/invalid-body');
    expectGoogleError(await googleCall('POST', '/v1/videos:annotate', owner.apiToken, '{"features": ['), 400, 'INVALID_ARGUMENT', 'request/malformed-json');

    // Tokens and scopes as for any upload: the same sentences.
    const reader = await personWithToken('read');
    const scoped = await annotate({ inputContent: 'AAAA', features: ['TEXT_DETECTION'] }, reader.apiToken);
    const plain = await stack.api('POST', '/getUploadURL', {}, reader.apiToken);
    expect(expectGoogleError(scoped, 403, 'PERMISSION_DENIED', plain.body.error.code)).toBe(plain.body.error.message);
    expectGoogleError(await googleCall('GET', `/v1/${operationName}`, undefined), 403, 'PERMISSION_DENIED');

    // Someone else's operation or upload, and an unknown one: not found, as everywhere.
    expectGoogleError(await googleCall('GET', `/v1/${operationName}`, reader.apiToken), 404, 'NOT_FOUND', 'uploads/not-found');
    expectGoogleError(await annotate({ inputUri: `frametext://uploads/${operationName.split('/').at(-1)}`, features: ['TEXT_DETECTION'] }, (await personWithToken('upload')).apiToken), 404, 'NOT_FOUND', 'upload/not-found');
    expectGoogleError(await googleCall('GET', '/v1/projects/-/locations/-/operations/no-such-upload', owner.apiToken), 404, 'NOT_FOUND', 'uploads/not-found');
    expectGoogleError(await googleCall('GET', '/v1/projects/p/operations', owner.apiToken), 404, 'NOT_FOUND', 'request/not-found');
  });
});
