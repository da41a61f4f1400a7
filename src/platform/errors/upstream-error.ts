/**
 * An outside system we depend on (the payment processor, later a vendor's
 * service) could not be reached or refused a call we made correctly: the API
 * answers 502 with Retry-After, saying so without the outside system's details.
 */
export class UpstreamError extends Error {
  constructor(
    /** What to tell the client, e.g. "The payment processor could not complete the request". */
    readonly publicMessage: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'UpstreamError';
  }
}
