import type { ZodError } from 'zod';
import type { ErrorCode } from '../contract/index.js';

/**
 * The one way the server says no: a code from the contract's list, a sentence, and where it
 * applies the field to blame and the index a game expects next. Domain code returns it (the move
 * path, where a refusal is common) or throws it (request handlers); it knows nothing of HTTP:
 * the HTTP layer answers it with the code's status (app.ts), the socket as an `error` message.
 */
export class Refusal extends Error {
  readonly field?: string;
  readonly nextIndex?: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    details: { field?: string; nextIndex?: number } = {},
  ) {
    super(message);
    if (details.field !== undefined) this.field = details.field;
    if (details.nextIndex !== undefined) this.nextIndex = details.nextIndex;
  }
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
