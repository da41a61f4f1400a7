import { LoggerService } from '@nestjs/common';
import pino, { Logger as Pino } from 'pino';
import pretty from 'pino-pretty';
import type { FastifyRequest } from 'fastify';
import { AppConfig } from '../../config/app-config';

const SECRET_QUERY_PARAMS = /([?&](?:token|access_token|code|state|signature|sig|key|secret)=)[^&]*/gi;

export type LogFormat = 'json' | 'pretty';

/**
 * Human-readable lines only for a person watching: in development with stdout
 * on a terminal. Production and piped output (collectors, files) get JSON.
 * LOG_FORMAT=json|pretty overrides both.
 */
export function chooseLogFormat(nodeEnv: AppConfig['env'], isTTY: boolean, override: AppConfig['logFormat']): LogFormat {
  if (override !== 'auto') return override;
  return nodeEnv === 'development' && isTTY ? 'pretty' : 'json';
}

/**
 * Structured logs, JSON or pretty (see chooseLogFormat); `destination` defaults
 * to stdout. Credentials never reach them: authorization and cookie headers
 * are redacted and secret-looking query values masked, before either format
 * is written.
 */
export function createRootLogger(config: AppConfig, destination?: pino.DestinationStream): Pino {
  const onTerminal = !destination && Boolean(process.stdout.isTTY);
  const format = chooseLogFormat(config.env, onTerminal, config.logFormat);
  const output =
    format === 'pretty'
      ? pretty({
          destination: destination ?? 1,
          sync: true,
          colorize: onTerminal,
          translateTime: 'SYS:HH:MM:ss.l',
          ignore: 'pid,hostname,service',
        })
      : (destination ?? pino.destination(1));
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
    output,
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
