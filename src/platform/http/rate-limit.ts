import rateLimit from '@fastify/rate-limit';
import { RouteConfig } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import IORedis from 'ioredis';
import { AppConfig } from '../../config/app-config';
import { REDIS_DISCONNECT_TIMEOUT_MS } from '../queue/queues';

/** Exempts a route from the global limit (health checks from load balancers). */
export const SkipThrottle = () => RouteConfig({ rateLimit: false });

/** A route-specific limit, e.g. on guessable codes: `@Throttle({ max: 10, timeWindow: 60_000 })`. */
export const Throttle = (limit: { max: number; timeWindow: number }) => RouteConfig({ rateLimit: limit });

/**
 * Requests are counted per client address (behind a proxy, set TRUST_PROXY so
 * the address comes from X-Forwarded-For). Not per presented credential: the
 * limiter runs before authentication, and keying on an unverified header would
 * give every made-up token a fresh budget. With Redis configured the counts are
 * shared by every instance.
 */
export async function registerRateLimit(fastify: FastifyInstance, config: AppConfig): Promise<IORedis | undefined> {
  const redis = config.redisUrl
    ? new IORedis(config.redisUrl, {
        connectTimeout: 1_000,
        maxRetriesPerRequest: 1,
        enableOfflineQueue: false,
        disconnectTimeout: REDIS_DISCONNECT_TIMEOUT_MS,
      })
    : undefined;
  redis?.on('error', () => undefined); // reported through health; ioredis reconnects
  await fastify.register(rateLimit, {
    global: true,
    max: config.rateLimit.max,
    timeWindow: config.rateLimit.windowMs,
    redis,
    nameSpace: `${config.queuePrefix}-rate-limit-`,
    // A limiter outage must not take the API down with it.
    skipOnError: true,
    keyGenerator: (request: FastifyRequest) => request.ip,
    errorResponseBuilder: (_request, context) => ({
      statusCode: context.statusCode,
      message: `Too many requests: the limit is ${context.max} per ${context.after === '1 minute' ? 'minute' : 'window'}; retry in ${context.after}`,
    }),
  });
  return redis;
}
