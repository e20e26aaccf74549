// Checks real calls of the public API against its OpenAPI description (GET /api/openapi.json) with a JSON Schema
// 2020-12 validator: the answer's body against the schema of its operation and status, and a request body that was
// accepted against the operation's request schema.
import { Ajv2020 } from 'ajv/dist/2020.js';
import formats, { type FormatsPlugin } from 'ajv-formats';
import type { OpenApiDocument } from '@frametext/contracts/openapi';

// ajv-formats is CommonJS: imported from ESM, its default is the module object, whose `default` is the plugin.
const addFormats = ((formats as unknown as { default?: FormatsPlugin }).default ?? formats) as FormatsPlugin;

/** One call as a client made it and what came back. */
export interface RecordedCall {
  method: string;
  /** The path under /api, with its query string, as the test wrote it (`/checkUploadStatus/abc?x=1`). */
  route: string;
  requestBody?: unknown;
  status: number;
  contentType: string | null;
  body: unknown;
}

export interface OpenApiChecker {
  /** The template of the operation a call reached (`/api/checkUploadStatus/{id}`), or undefined when none matches. */
  operationOf(method: string, route: string): string | undefined;
  /** What is wrong with the call by the description: empty when its answer (and accepted body) match. */
  problems(call: RecordedCall): string[];
  /** The validator of a component schema, by name. */
  component(name: string): (value: unknown) => string[];
}

const DOC_ID = 'urn:frametext:openapi';
const pointer = (...parts: string[]) => parts.map((p) => p.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

export function openApiChecker(doc: OpenApiDocument): OpenApiChecker {
  // Not strict: the document holds OpenAPI keywords next to the schemas; the schemas themselves are checked in full.
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema(doc as unknown as Record<string, unknown>, DOC_ID);

  const validatorAt = (path: string) => {
    const validate = ajv.getSchema(`${DOC_ID}#/${path}`);
    if (!validate) throw new Error(`no schema at ${path}`);
    return (value: unknown): string[] => (validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message} ${JSON.stringify(e.params)}`));
  };

  // Literal paths win over templates (`/api/getUploadDetails/demo` before `/api/getUploadDetails/{id}`).
  const templates = Object.keys(doc.paths)
    .map((template) => ({ template, regex: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`), params: (template.match(/\{/g) ?? []).length }))
    .sort((a, b) => a.params - b.params);

  const operationOf = (method: string, route: string) => {
    const path = `/api${route.split('?')[0]}`;
    return templates.find((t) => t.regex.test(path) && doc.paths[t.template]?.[method.toLowerCase()])?.template;
  };

  return {
    operationOf,
    component: (name) => validatorAt(pointer('components', 'schemas', name)),
    problems(call) {
      const label = `${call.method} ${call.route} → ${call.status}`;
      const template = operationOf(call.method, call.route);
      if (!template) return [`${label}: no operation in the description`];
      const method = call.method.toLowerCase();
      const op = doc.paths[template]![method]!;
      const status = op.responses[String(call.status)] ? String(call.status) : 'default';
      const media = op.responses[status]?.content;
      const problems: string[] = [];
      if (!media) {
        if (call.body !== undefined && call.body !== '') problems.push(`${label}: the description says no body, but one came`);
      } else if (media['application/json']) {
        if (!call.contentType?.startsWith('application/json')) problems.push(`${label}: answered ${call.contentType}, described as JSON`);
        const check = validatorAt(pointer('paths', template, method, 'responses', status, 'content', 'application/json', 'schema'));
        problems.push(...check(call.body).map((p) => `${label}: ${p}`));
      }
      if (call.status < 300 && call.requestBody !== undefined && op.requestBody?.content['application/json']) {
        const check = validatorAt(pointer('paths', template, method, 'requestBody', 'content', 'application/json', 'schema'));
        problems.push(...check(call.requestBody).map((p) => `${label}: the accepted request body ${p}`));
      }
      return problems;
    },
  };
}
