import pino, { type Logger } from 'pino';
import { currentContext } from './context.js';

export type { Logger };

/** pino JSON logs; every line written inside a request or message carries its correlation id. */
export function createLogger(service: string, level = 'info'): Logger {
  return pino({
    name: service,
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin() {
      const ctx = currentContext();
      return ctx ? { correlationId: ctx.correlationId } : {};
    },
    redact: { paths: ['password', '*.password', 'token', '*.token', 'refreshToken', '*.refreshToken', 'req.headers.authorization'], censor: '[redacted]' },
  });
}
