import { z } from 'zod';

/** Every message on the bus is wrapped in this envelope. `data` is validated with the event's own schema. */
export const envelopeSchema = z.object({
  id: z.string().uuid(),
  type: z.string().regex(/^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+\.v[0-9]+$/, 'event type must look like entity.past-tense.vN'),
  occurredAt: z.string().datetime(),
  correlationId: z.string().min(1).max(128),
  causationId: z.string().min(1).max(128).nullable(),
  data: z.unknown(),
});

export type Envelope<T = unknown> = Omit<z.infer<typeof envelopeSchema>, 'data'> & { data: T };
