/**
 * W3C Trace Context from the browser: one trace id for a piece of work a person starts (an upload), a new parent id
 * on each request of it, so the server's spans of that work (its requests, then the pipeline's messages) form one
 * trace. The browser records nothing itself, so its sampled flag is 0; the gateway decides what is recorded.
 */
function randomHex(bytes: number): string {
  return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, '0')).join('');
}

export function newTraceId(): string {
  return randomHex(16);
}

/** The `traceparent` header of one request of the trace. */
export function traceHeaders(traceId: string): Record<string, string> {
  return { traceparent: `00-${traceId}-${randomHex(8)}-00` };
}
