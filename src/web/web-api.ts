import type { FastifyInstance } from 'fastify';

export interface ApiAnswer<T = Record<string, unknown>> {
  status: number;
  body: T & { message?: string };
}

/**
 * The REST API, called in-process (fastify.inject) with the session's token: the pages see exactly
 * what a CLI would, through the same guard, validation and read-your-writes.
 */
export async function callApi<T = Record<string, unknown>>(
  fastify: FastifyInstance,
  token: string | null,
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
  url: string,
  body?: unknown,
  /** The browser's address, so rate limits count per person, not for the web app as a whole. */
  remoteAddress?: string,
  /** The form's `Idempotency-Key` on a request that moves money. */
  idempotencyKey?: string,
  /** Any other request header (the sandbox's `Pay-Sandbox-Card`). */
  extraHeaders: Record<string, string> = {},
): Promise<ApiAnswer<T>> {
  const headers: Record<string, string> = { ...extraHeaders };
  if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fastify.inject({
    method,
    url,
    headers,
    remoteAddress,
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
  let parsed: unknown = {};
  try {
    parsed = response.body ? JSON.parse(response.body) : {};
  } catch {
    parsed = { message: 'Unexpected answer from the API' };
  }
  return { status: response.statusCode, body: parsed as T & { message?: string } };
}
