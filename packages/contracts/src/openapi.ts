import { z } from 'zod';
import { API_OPERATIONS, API_TAGS, type ApiOperation, type NamedSchema } from './api-operations.js';
import { errorBodySchema } from './common.js';

export { API_OPERATIONS, API_TAGS, type ApiOperation, type ApiResponse, type ApiTag, type NamedSchema } from './api-operations.js';

/*
 * Builds the OpenAPI 3.1 description of the public API from the zod schemas of this package (z.toJSONSchema, JSON
 * Schema 2020-12, which OpenAPI 3.1 uses as is) and the operations of api-operations.ts. Which endpoints exist and
 * who may call them come from the caller, the gateway, whose route table is the one list of endpoints.
 */

/** An endpoint to describe: `METHOD /path` as a key of API_OPERATIONS, and whether it needs a bearer token. */
export interface DescribedEndpoint {
  key: string;
  signedIn: boolean;
}

/** The version of the API's description; raise it when an endpoint changes in a way a script would notice. */
export const API_VERSION = '1.0.0';

// Kept loose on purpose: the document is plain JSON, read by programs and by our reference page.
export type JsonSchema = Record<string, unknown>;
export interface OpenApiDocument {
  openapi: '3.1.1';
  info: { title: string; version: string; description: string };
  jsonSchemaDialect: string;
  servers: { url: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, OpenApiOperation>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, unknown> };
}
export interface OpenApiOperation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  security: Record<string, string[]>[];
  parameters?: { name: string; in: 'path' | 'query'; required: boolean; description?: string; schema: JsonSchema }[];
  requestBody?: { required: boolean; content: Record<string, { schema: JsonSchema; example?: unknown }> };
  responses: Record<string, { description: string; headers?: Record<string, { description: string; schema: JsonSchema }>; content?: Record<string, { schema: JsonSchema }> }>;
}

const ERROR_COMPONENT = 'Error';
const BEARER = 'bearerAuth';
const REFUSED_TOKEN = 'No token, or one that is invalid, expired or whose session ended: get a new one (sign in or refresh) and retry.';
const RATE_LIMITED =
  'You made more requests in a minute than your account may (gateway/rate-limited; all your API tokens and browser sessions count together): wait as long as Retry-After says.';
const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** `/api/checkUploadStatus/:id` → `/api/checkUploadStatus/{id}`. */
export function openApiPath(path: string): string {
  // Only a whole segment is a parameter: `videos:annotate` (Google's custom method) is a literal.
  return path.replace(/\/:([A-Za-z0-9_]+)/g, '/{$1}');
}

/** `GET /api/a/:id` → `['GET', '/api/a/:id']`. */
export function splitOperationKey(key: string): { method: string; path: string } {
  const [method, path, ...rest] = key.split(' ');
  if (!method || !path || rest.length > 0 || !/^[A-Z]+$/.test(method) || !path.startsWith('/')) throw new Error(`"${key}" is not "METHOD /path"`);
  return { method, path };
}

/** One JSON Schema per component name; the same name for two different schemas is a mistake in the operations. */
class Components {
  private readonly byName = new Map<string, { schema: z.ZodType; io: 'input' | 'output' }>();

  add(named: NamedSchema, io: 'input' | 'output'): { $ref: string } {
    const seen = this.byName.get(named.name);
    if (seen && (seen.schema !== named.schema || seen.io !== io)) throw new Error(`two different schemas are both named ${named.name}`);
    this.byName.set(named.name, { schema: named.schema, io });
    return schemaRef(named.name);
  }

  /** Requests are described as a client writes them (defaults optional), answers as they come (defaults filled). */
  toJsonSchemas(): Record<string, JsonSchema> {
    const out: Record<string, JsonSchema> = {};
    for (const io of ['input', 'output'] as const) {
      const registry = z.registry<{ id: string }>();
      for (const [name, entry] of this.byName) if (entry.io === io) registry.add(entry.schema, { id: name });
      const { schemas } = z.toJSONSchema(registry, { io, target: 'draft-2020-12', unrepresentable: 'any', uri: (id) => `#/components/schemas/${id}` });
      for (const [name, schema] of Object.entries(schemas)) out[name] = withoutRootKeywords(schema as JsonSchema);
    }
    return Object.fromEntries(Object.entries(out).sort(([a], [b]) => a.localeCompare(b)));
  }
}

/** A component is a schema inside the document: it takes the document's dialect and has no id of its own. */
function withoutRootKeywords(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  return rest;
}

/** A single schema (a path or query parameter), inline. */
function inlineSchema(schema: z.ZodType, io: 'input' | 'output' = 'input'): JsonSchema {
  return withoutRootKeywords(z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema);
}

function describeOperation(key: string, op: ApiOperation, signedIn: boolean, components: Components): OpenApiOperation {
  const { method, path } = splitOperationKey(key);
  const pathParams = [...path.matchAll(/\/:([A-Za-z0-9_]+)/g)].map((m) => m[1]!);
  const declared = Object.keys(op.params ?? {});
  if (pathParams.join() !== declared.join()) throw new Error(`${key}: params must describe exactly its path parameters (${pathParams.join(', ') || 'none'}), in order`);

  const parameters: NonNullable<OpenApiOperation['parameters']> = pathParams.map((name) => ({
    name,
    in: 'path',
    required: true,
    description: op.params![name]!.description,
    schema: inlineSchema(op.params![name]!.schema),
  }));
  for (const [name, field] of Object.entries(op.query?.shape ?? {})) {
    const schema = field as z.ZodType;
    parameters.push({ name, in: 'query', required: !schema.safeParse(undefined).success, description: schema.description, schema: inlineSchema(schema) });
  }

  const responses: OpenApiOperation['responses'] = {};
  for (const [status, r] of Object.entries(op.responses)) {
    responses[status] = { description: r.description };
    if (r.headers) responses[status].headers = Object.fromEntries(Object.entries(r.headers).map(([h, d]) => [h, { description: d, schema: { type: 'string' } }]));
    const content: NonNullable<OpenApiOperation['responses'][string]['content']> = {};
    if (r.json) content['application/json'] = { schema: components.add(r.json, 'output') };
    for (const type of r.contentType ? [r.contentType] : (r.contentTypes ?? [])) content[type] ??= { schema: { type: 'string' } };
    if (Object.keys(content).length > 0) responses[status].content = content;
  }
  const errors: Record<number, string> = { ...op.errors };
  if (signedIn) errors[403] ??= REFUSED_TOKEN;
  if (signedIn) errors[429] ??= RATE_LIMITED;
  const errorRef = components.add(op.errorBody ?? { name: ERROR_COMPONENT, schema: errorBodySchema }, 'output');
  for (const [status, description] of Object.entries(errors)) {
    if (responses[status]) throw new Error(`${key}: ${status} is both a success and an error`);
    responses[status] = { description, content: { 'application/json': { schema: errorRef } } };
  }
  responses.default = { description: 'Any other error, with the same error body.', content: { 'application/json': { schema: errorRef } } };

  const operation: OpenApiOperation = {
    operationId: operationId(method, path),
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    tags: [API_TAGS[op.tag]],
    security: signedIn ? [{ [BEARER]: [] }] : [],
    ...(parameters.length > 0 ? { parameters } : {}),
    responses,
  };
  if (op.body) {
    const media = { schema: components.add(op.body, 'input'), ...(op.body.example === undefined ? {} : { example: op.body.example }) };
    operation.requestBody = { required: op.body.required ?? true, content: { [op.body.contentType ?? 'application/json']: media } };
  }
  return operation;
}

/** `POST /api/auth/password-reset/confirm` → `postAuthPasswordResetConfirm`; `:id` → `ById`. */
function operationId(method: string, path: string): string {
  const words = path
    .replace(/^\/api\//, '')
    // A colon inside a segment (`videos:annotate`) separates words; one opening a segment marks a parameter.
    .split(/[/.\-_]|(?<!\/):/)
    .filter(Boolean)
    .map((w) => (w.startsWith(':') ? `By${cap(w.slice(1))}` : cap(w)));
  return method.toLowerCase() + words.join('');
}
const cap = (w: string) => w.charAt(0).toUpperCase() + w.slice(1);

const DESCRIPTION = [
  'The HTTP API of FrameText, which the web app itself uses: upload a video or photos, follow the processing, read the recognised text and numbers.',
  '',
  'Calls that need a token take it as `Authorization: Bearer <token>`, such as the access token that POST /api/auth/login (or /signup, /refresh) answers. A missing or refused token answers 403: get a new one and retry.',
  'Every error answers a JSON body `{ "error": { "code", "message", "correlationId", "details" } }`: `code` is stable for programs, `message` is for people.',
  '',
  'The /v1 endpoints are Google Video Intelligence\'s text detection, for its clients: they answer Google\'s error body `{ "error": { "code", "message", "status" } }` (docs/video-intelligence.md).',
  '',
  'A typical script: POST /api/getUploadURL, PUT each file to its URL, POST /api/uploadComplete, poll GET /api/checkUploadStatus/{id} until processed, then GET /api/getUploadDetails/{id}.',
].join('\n');

/**
 * The OpenAPI 3.1 document for the endpoints given, in their order. Throws when an endpoint has no entry in
 * API_OPERATIONS, or an entry is not among the endpoints: the description covers exactly what is served.
 */
export function buildOpenApiDocument(endpoints: readonly DescribedEndpoint[]): OpenApiDocument {
  const problems = operationCoverage(endpoints.map((e) => e.key));
  if (problems.length > 0) throw new Error(`the API description does not match the routes:\n- ${problems.join('\n- ')}`);

  const components = new Components();
  const paths: OpenApiDocument['paths'] = {};
  for (const { key, signedIn } of endpoints) {
    const { method, path } = splitOperationKey(key);
    const item = (paths[openApiPath(path)] ??= {});
    item[method.toLowerCase()] = describeOperation(key, API_OPERATIONS[key]!, signedIn, components);
  }
  return {
    openapi: '3.1.1',
    info: { title: 'FrameText API', version: API_VERSION, description: DESCRIPTION },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    servers: [{ url: '/' }],
    tags: Object.values(API_TAGS).map((name) => ({ name, description: name })),
    paths,
    components: {
      schemas: components.toJsonSchemas(),
      securitySchemes: {
        [BEARER]: {
          type: 'http',
          scheme: 'bearer',
          // No bearerFormat: a session's access token is a JWT, but any token the gateway accepts as a bearer is meant.
          description: 'Authorization: Bearer <token>, with a token the gateway accepts: for example the access token from /api/auth/login, /signup or /refresh (short-lived; its keys are at /api/auth/jwks.json).',
        },
      },
    },
  };
}

/** What is wrong between the endpoints served and the operations described: empty when they are the same set. */
export function operationCoverage(keys: readonly string[]): string[] {
  const problems: string[] = [];
  const served = new Set(keys);
  for (const key of served) if (!API_OPERATIONS[key]) problems.push(`${key} is served but has no entry in API_OPERATIONS (packages/contracts/src/api-operations.ts)`);
  for (const key of Object.keys(API_OPERATIONS)) if (!served.has(key)) problems.push(`${key} is described in API_OPERATIONS but no route serves it`);
  if (served.size !== keys.length) problems.push('an endpoint is listed twice');
  return problems;
}
