/** Exit codes, as the issue fixes them. */
export const EXIT = { ok: 0, failure: 1, usage: 2, paymentNeeded: 3, notSignedIn: 4 } as const;
export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** A failure the CLI explains and exits with; `body` is what `--json` prints. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = EXIT.failure,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/** A non-2xx answer from the API, carrying the server's own `message`. */
export class ApiError extends CliError {
  constructor(
    readonly status: number,
    message: string,
    readonly response: Record<string, unknown>,
  ) {
    super(message, status === 401 ? EXIT.notSignedIn : status === 402 ? EXIT.paymentNeeded : EXIT.failure, {
      status,
      ...response,
    });
  }
}

export const usageError = (message: string) => new CliError(message, EXIT.usage);
