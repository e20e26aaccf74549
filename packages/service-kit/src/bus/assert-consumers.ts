import { isEventType, type EventType } from '@frametext/contracts';
import type { Consumer } from './types.js';

/**
 * The boot check: every event a service says it consumes has exactly one consumer, and every consumer
 * handles a declared event of the contracts registry. Throws, naming each offending event, otherwise.
 */
export function assertConsumers(service: string, consumes: readonly EventType[], consumers: readonly Consumer[]): void {
  const problems: string[] = [];
  const declared = new Set<string>(consumes);
  for (const type of declared) {
    if (!isEventType(type)) problems.push(`"${type}" is not an event of the contracts registry`);
    const count = consumers.filter((c) => c.type === type).length;
    if (count === 0) problems.push(`no consumer handles "${type}"`);
    if (count > 1) problems.push(`${count} consumers handle "${type}" (exactly one may)`);
  }
  for (const type of new Set(consumers.map((c) => c.type as string))) {
    if (!isEventType(type)) problems.push(`a consumer handles "${type}", which is not an event of the contracts registry`);
    else if (!declared.has(type)) problems.push(`a consumer handles "${type}", which is not in the events ${service} consumes`);
  }
  if (problems.length > 0) throw new Error(`${service} refuses to start: ${problems.join('; ')}`);
}
