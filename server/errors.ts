import type { ZodError } from 'zod';
import type { ErrorCode } from '../contract/index.js';

/** An HTTP error with a stable code, answered as `HttpError` by the app's error handler. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** A refused websocket request: sent to the client as an `error` message, nothing changed. */
export interface Refusal {
  readonly code: ErrorCode;
  readonly message: string;
  readonly field?: string;
  readonly nextIndex?: number;
}

/** The first zod issue as a field path (dotted) and a sentence naming the rule. */
export function describeZodError(error: ZodError): { field?: string; message: string } {
  const issue = error.issues[0];
  if (!issue) return { message: 'invalid input' };
  if (issue.code === 'unrecognized_keys') {
    const field = [...issue.path.map(String), issue.keys[0]!].join('.');
    return { field, message: `${field}: unknown field (a typo?)` };
  }
  const field = issue.path.map(String).join('.');
  return field === '' ? { message: issue.message } : { field, message: `${field}: ${issue.message}` };
}
