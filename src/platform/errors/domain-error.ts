/**
 * The error codes the domain speaks. One HTTP filter maps them to statuses, so
 * handlers and deciders never know about HTTP.
 */
export type DomainErrorCode =
  | 'invalid' // 400: the request is malformed or breaks a rule of its fields
  | 'unauthenticated' // 401
  | 'payment_required' // 402
  | 'forbidden' // 403
  | 'not_found' // 404
  | 'conflict' // 409
  | 'payload_too_large' // 413
  | 'unprocessable' // 422: well-formed, but the current state refuses it
  | 'rate_limited' // 429
  | 'unavailable' // 503
  | 'bad_gateway' // 502: an outside service we called for the caller failed; its message is passed on
  | 'gateway_timeout'; // 504: that service did not answer in time

export class DomainError extends Error {
  constructor(
    readonly code: DomainErrorCode,
    message: string,
    /** Extra fields for the response body, beside `message`. */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'DomainError';
  }
}
