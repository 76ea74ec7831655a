import type { ErrorCode, ErrorParams } from '@portcullis/contract';

/**
 * The one way the server fails a call: a catalogue code plus the values its text names.
 * Only the error-handler plugin turns it into a reply.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly params: ErrorParams;
  readonly field: string | undefined;

  constructor(
    code: ErrorCode,
    params: ErrorParams = {},
    options: { field?: string; cause?: unknown } = {},
  ) {
    super(code, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.params = params;
    this.field = options.field;
  }
}

/** A failed field check, reported exactly like a schema failure. */
export function invalidParameter(field: string): AppError {
  return new AppError('InvalidParameter', { field }, { field });
}
