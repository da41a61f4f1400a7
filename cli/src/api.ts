import { randomUUID } from 'node:crypto';
import { apiUrl, currentToken } from './config';
import { ApiError, CliError, EXIT } from './errors';

export type Query = Record<string, string | number | boolean | undefined>;

export interface RequestOptions {
  body?: unknown;
  query?: Query;
  /** Send the token when there is one (public routes); `true` requires one. */
  auth?: boolean | 'optional';
  /** Statuses answered as values instead of thrown (e.g. 402, 404). */
  accept?: number[];
  /** A streamed body with its own content type (uploads). */
  raw?: { body: ReadableStream<Uint8Array>; contentType: string; length: number };
  /**
   * A request that moves money: it carries a fresh `Idempotency-Key`, and is
   * sent again with the same key when the answer was lost (no connection, or
   * 409/503 with Retry-After), so a retry never pays twice.
   */
  moneyMove?: boolean;
}

/** Attempts of a money move whose answer was lost, and the longest wait between two. */
const MONEY_MOVE_ATTEMPTS = 4;
const MAX_RETRY_AFTER_MS = 5_000;

export interface ApiAnswer<T> {
  status: number;
  body: T;
}

/** The public REST API, and nothing else: no code shared with the server. */
export class Api {
  constructor(readonly baseUrl = apiUrl()) {}

  url(path: string, query?: Query): string {
    const url = new URL(this.baseUrl + path);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== '') url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  async request<T = Record<string, unknown>>(method: string, path: string, options: RequestOptions = {}): Promise<ApiAnswer<T>> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (options.auth) {
      const token = await currentToken();
      if (token) headers.authorization = `Bearer ${token.token}`;
      else if (options.auth === true) throw notSignedIn();
    }
    let body: string | FormData | ReadableStream<Uint8Array> | undefined;
    if (options.raw) {
      headers['content-type'] = options.raw.contentType;
      body = options.raw.body;
    } else if (options.body instanceof FormData) body = options.body;
    else if (options.body !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    if (options.moneyMove) headers['idempotency-key'] = randomUUID();
    const response = await this.send(
      method,
      path,
      { headers, body, query: options.query },
      options.moneyMove ? MONEY_MOVE_ATTEMPTS : 1,
    );
    const parsed = await readJson(response);
    if (response.ok || options.accept?.includes(response.status)) return { status: response.status, body: parsed as T };
    const message = typeof parsed.message === 'string' ? parsed.message : `${method} ${path} answered HTTP ${response.status}`;
    if (response.status === 401 && options.auth) {
      throw new ApiError(401, `${message} (sign in again with \`svc login\`, or check SVC_TOKEN)`, parsed);
    }
    throw new ApiError(response.status, message, parsed);
  }

  /** Sends, and for a money move sends again with the same key while the answer is lost. */
  private async send(
    method: string,
    path: string,
    request: { headers: Record<string, string>; body: RequestInit['body']; query?: Query },
    attempts: number,
  ): Promise<Response> {
    for (let attempt = 1; ; attempt++) {
      let response: Response;
      try {
        // duplex: a streamed request body (Node's fetch requires saying so).
        response = await fetch(this.url(path, request.query), { method, ...request, duplex: 'half' } as RequestInit);
      } catch (error) {
        if (attempt < attempts) {
          await sleep(250 * 2 ** attempt);
          continue;
        }
        throw new CliError(`Cannot reach ${this.baseUrl}: ${(error as Error).cause ?? (error as Error).message}`);
      }
      const retryAfter = Number(response.headers.get('retry-after'));
      if (attempt < attempts && (response.status === 409 || response.status === 503) && retryAfter > 0) {
        await response.body?.cancel();
        await sleep(Math.min(retryAfter * 1000, MAX_RETRY_AFTER_MS));
        continue;
      }
      return response;
    }
  }

  async get<T = Record<string, unknown>>(path: string, options: Omit<RequestOptions, 'body'> = {}): Promise<T> {
    return (await this.request<T>('GET', path, options)).body;
  }

  async post<T = Record<string, unknown>>(path: string, body?: unknown, options: Omit<RequestOptions, 'body'> = {}): Promise<T> {
    return (await this.request<T>('POST', path, { ...options, body })).body;
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function readJson(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  if (!text) return {};
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' ? value : { value };
  } catch {
    return { message: text.slice(0, 500) };
  }
}

export const notSignedIn = () =>
  new CliError(`Not signed in to ${apiUrl()}: run \`svc login\` or set SVC_TOKEN`, EXIT.notSignedIn);
