/**
 * `HttpError`: what routes and plugins throw for a documented failure. The error handler (plugins/errors.ts)
 * turns it into the error body of docs/decisions.md section 3 with its status, message and headers.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/** 400 with `message`. */
export const badRequest = (message: string) => new HttpError(400, message);
/** 404 with `message` (`Contact not found`). */
export const notFound = (message: string) => new HttpError(404, message);
/** 409 with `message` (`A contact with email ann@example.com already exists`). */
export const conflict = (message: string) => new HttpError(409, message);
