import { envelopeSchema, eventSchemas, isEventType, type Envelope } from '@frametext/contracts';
import type { Options } from 'amqplib';
import type { z } from 'zod';

export type Decoded = { ok: true; envelope: Envelope } | { ok: false; reason: string };

function describe(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`).join('; ');
}

/** Checks an envelope and its event data against the contracts; the data comes back as the schema parsed it. */
export function checkEnvelope(value: unknown): Decoded {
  const parsed = envelopeSchema.safeParse(value);
  if (!parsed.success) return { ok: false, reason: `invalid envelope: ${describe(parsed.error)}` };
  const { type } = parsed.data;
  if (!isEventType(type)) return { ok: false, reason: `unknown event type "${type}"` };
  const data = eventSchemas[type].safeParse(parsed.data.data);
  if (!data.success) return { ok: false, reason: `invalid data for ${type}: ${describe(data.error)}` };
  return { ok: true, envelope: { ...parsed.data, data: data.data } };
}

/** Reads a message body as an envelope; anything else is poison and says why. */
export function decodeMessage(content: Buffer): Decoded {
  let json: unknown;
  try {
    json = JSON.parse(content.toString('utf8'));
  } catch {
    return { ok: false, reason: 'body is not valid JSON' };
  }
  return checkEnvelope(json);
}

export function encodeEnvelope(envelope: Envelope): Buffer {
  return Buffer.from(JSON.stringify(envelope), 'utf8');
}

/** AMQP properties of an envelope: persistent, JSON, and its ids and trace context where operators and tracing tools look for them. */
export function envelopeProperties(envelope: Envelope, trace: Record<string, string> = {}): Options.Publish {
  return {
    persistent: true,
    contentType: 'application/json',
    messageId: envelope.id,
    type: envelope.type,
    correlationId: envelope.correlationId,
    timestamp: Math.floor(Date.parse(envelope.occurredAt) / 1000),
    headers: {
      ...trace,
      'x-correlation-id': envelope.correlationId,
      ...(envelope.causationId ? { 'x-causation-id': envelope.causationId } : {}),
    },
  };
}

/** Header values stay short: AMQP tables are bounded and an error message is enough. */
export function headerText(text: string, max = 1000): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
