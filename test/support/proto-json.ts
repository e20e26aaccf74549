// Holds JSON to Google's proto3 JSON mapping of the messages that @google-cloud/video-intelligence ships
// (build/protos/protos.json, the package's own protobufjs root): every key must be a field of its message, every
// value of its field's type, Durations and Timestamps as strings, Any resolved by its @type. A misspelt field fails
// here, where protobufjs' fromObject would drop it silently. Then the JSON is decoded as Google's REST clients decode
// it (proto3-json-serializer) and the message verified and round-tripped through the wire format.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const viRequire = createRequire(require.resolve('@google-cloud/video-intelligence'));
const gaxRequire = createRequire(viRequire.resolve('google-gax'));

/** The few parts of protobufjs' reflection this check reads. */
interface ProtoField {
  name: string;
  type: string;
  repeated: boolean;
  map: boolean;
  resolvedType: ProtoType | ProtoEnum | null;
}
interface ProtoEnum {
  values: Record<string, number>;
}
interface ProtoType {
  fullName: string;
  fields: Record<string, ProtoField>;
  verify(message: unknown): string | null;
  encode(message: unknown): { finish(): Uint8Array };
  decode(bytes: Uint8Array): unknown;
}
interface ProtoRoot {
  lookupType(name: string): ProtoType;
  resolveAll(): ProtoRoot;
}

const protobuf = gaxRequire('protobufjs') as { Root: { fromJSON(json: unknown): ProtoRoot } };
const serializer = gaxRequire('proto3-json-serializer') as { fromProto3JSON(type: ProtoType, json: unknown): unknown };

/** The Video Intelligence root, with google.longrunning, google.rpc and the well-known types it imports. */
export const videoIntelligenceRoot: ProtoRoot = protobuf.Root.fromJSON(viRequire('../protos/protos.json')).resolveAll();

const DURATION = /^-?\d+(\.\d{1,9})?s$/;
const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)$/;
const INT = new Set(['int32', 'uint32', 'sint32', 'fixed32', 'sfixed32']);
const INT64 = new Set(['int64', 'uint64', 'sint64', 'fixed64', 'sfixed64']);

function checkScalar(type: string, value: unknown, at: string, problems: string[]): void {
  const bad = (what: string) => problems.push(`${at}: expected ${what}, got ${JSON.stringify(value)}`);
  if (type === 'string') return void (typeof value !== 'string' && bad('a string'));
  if (type === 'bool') return void (typeof value !== 'boolean' && bad('true or false'));
  if (type === 'bytes') return void (typeof value !== 'string' && bad('base64'));
  if (type === 'float' || type === 'double') return void (typeof value !== 'number' && !['NaN', 'Infinity', '-Infinity'].includes(String(value)) && bad('a number'));
  if (INT.has(type)) return void (!Number.isInteger(value) && bad('an integer'));
  if (INT64.has(type)) return void (!(Number.isInteger(value) || (typeof value === 'string' && /^-?\d+$/.test(value))) && bad('an integer or its decimal string'));
  bad(`a ${type}`);
}

function checkMessage(type: ProtoType, json: unknown, at: string, problems: string[]): void {
  switch (type.fullName) {
    case '.google.protobuf.Duration':
      if (typeof json !== 'string' || !DURATION.test(json)) problems.push(`${at}: expected a duration such as "1.5s", got ${JSON.stringify(json)}`);
      return;
    case '.google.protobuf.Timestamp':
      if (typeof json !== 'string' || !TIMESTAMP.test(json)) problems.push(`${at}: expected an RFC 3339 time, got ${JSON.stringify(json)}`);
      return;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return void problems.push(`${at}: expected an object of ${type.fullName}`);
  let entries = Object.entries(json);
  if (type.fullName === '.google.protobuf.Any') {
    const typeUrl = (json as { '@type'?: unknown })['@type'];
    if (typeof typeUrl !== 'string' || !typeUrl.startsWith('type.googleapis.com/')) return void problems.push(`${at}: an Any needs "@type": "type.googleapis.com/<message>"`);
    let inner: ProtoType;
    try {
      inner = videoIntelligenceRoot.lookupType(typeUrl.slice('type.googleapis.com/'.length));
    } catch {
      return void problems.push(`${at}: no message ${typeUrl} in the package's protos`);
    }
    entries = entries.filter(([key]) => key !== '@type');
    return checkMessage(inner, Object.fromEntries(entries), `${at}<${inner.fullName}>`, problems);
  }
  for (const [key, value] of entries) {
    const field = type.fields[key];
    if (!field) {
      problems.push(`${at}.${key}: ${type.fullName} has no field ${key} (fields: ${Object.keys(type.fields).join(', ')})`);
      continue;
    }
    if (value === null) continue;
    const values = field.repeated ? (Array.isArray(value) ? value : (problems.push(`${at}.${key}: expected a list`), [])) : [value];
    values.forEach((v, i) => {
      const where = field.repeated ? `${at}.${key}[${i}]` : `${at}.${key}`;
      const resolved = field.resolvedType;
      if (resolved && 'fields' in resolved) checkMessage(resolved, v, where, problems);
      else if (resolved) {
        if (!(typeof v === 'string' ? v in resolved.values : Object.values(resolved.values).includes(v as number))) problems.push(`${where}: ${JSON.stringify(v)} is not a value of ${field.type}`);
      } else checkScalar(field.type, v, where, problems);
    });
  }
}

/**
 * What is wrong with `json` as the JSON mapping of message `typeName` (for example
 * `google.longrunning.Operation`): an empty list when nothing. Also decodes it as Google's REST clients do, then
 * verifies and round-trips the decoded message through the wire format.
 */
export function protoJsonProblems(typeName: string, json: unknown): string[] {
  const type = videoIntelligenceRoot.lookupType(typeName);
  const problems: string[] = [];
  checkMessage(type, json, typeName, problems);
  if (problems.length > 0) return problems;
  try {
    const message = serializer.fromProto3JSON(type, json);
    const verified = type.verify(message);
    if (verified) return [`${typeName}: ${verified}`];
    type.decode(type.encode(message).finish());
  } catch (err) {
    problems.push(`${typeName}: Google's JSON decoder refused it: ${(err as Error).message}`);
  }
  return problems;
}
