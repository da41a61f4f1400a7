import { LoggerService } from '@nestjs/common';
import pino, { Logger as Pino } from 'pino';
import type { FastifyRequest } from 'fastify';
import { AppConfig } from '../../config/app-config';

const SECRET_QUERY_PARAMS = /([?&](?:token|access_token|code|state|signature|sig|key|secret)=)[^&]*/gi;

/**
 * Structured JSON logs. Credentials never reach them: authorization and cookie
 * headers are redacted and secret-looking query values masked.
 */
export function createRootLogger(config: AppConfig, destination?: pino.DestinationStream): Pino {
  return pino(
    {
      level: config.logLevel,
      base: { service: 'svc-marketplace' },
      redact: {
        paths: [
          'req.headers.authorization',
          'req.headers.cookie',
          'req.headers["pay-signature"]',
          '*.password',
          '*.token',
          '*.secret',
        ],
        censor: '[redacted]',
      },
      serializers: {
        req: (request: FastifyRequest) => ({
          method: request.method,
          url: request.url.replace(SECRET_QUERY_PARAMS, '$1[redacted]'),
          remoteAddress: request.ip,
        }),
        err: pino.stdSerializers.err,
      },
    },
    destination ?? pino.destination(1),
  );
}

/** Lets Nest's own Logger write through the same pino instance. */
export class PinoNestLogger implements LoggerService {
  constructor(private readonly pino: Pino) {}

  log(message: unknown, context?: string) {
    this.write('info', message, context);
  }
  error(message: unknown, ...rest: unknown[]) {
    const context = typeof rest[rest.length - 1] === 'string' ? (rest[rest.length - 1] as string) : undefined;
    this.write('error', message, context);
  }
  warn(message: unknown, context?: string) {
    this.write('warn', message, context);
  }
  debug(message: unknown, context?: string) {
    this.write('debug', message, context);
  }
  verbose(message: unknown, context?: string) {
    this.write('trace', message, context);
  }
  fatal(message: unknown, context?: string) {
    this.write('fatal', message, context);
  }

  private write(level: 'info' | 'error' | 'warn' | 'debug' | 'trace' | 'fatal', message: unknown, context?: string) {
    if (message instanceof Error) this.pino[level]({ context, err: message }, message.message);
    else if (message && typeof message === 'object') this.pino[level]({ context, ...message });
    else this.pino[level]({ context }, String(message));
  }
}
