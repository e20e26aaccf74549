import pino, { type Logger } from 'pino';
import { currentContext } from './context.js';

export type { Logger };

/**
 * pino JSON logs; every line written inside a request or message carries its correlation id. Lines go to
 * stdout unless another destination is given (tests read what was logged).
 */
export function createLogger(service: string, level = 'info', destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    name: service,
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin() {
      const ctx = currentContext();
      return ctx ? { correlationId: ctx.correlationId } : {};
    },
    redact: { paths: ['password', '*.password', 'token', '*.token', 'refreshToken', '*.refreshToken', 'req.headers.authorization'], censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}
