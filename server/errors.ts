import type { ZodError } from 'zod';
import type { CodedError, ErrorCode, ErrorParams } from '../contract/index.js';

/** What a refusal carries besides its code and sentence; `params` is required wherever its code has parameters. */
export type RefusalDetails<C extends ErrorCode> = { field?: string; nextIndex?: number } & (keyof ErrorParams<C> extends never
  ? { params?: ErrorParams<C> }
  : { params: ErrorParams<C> });

/**
 * The one way the server says no: a code from the contract's list, its parameters (what a client
 * words the refusal from), an English sentence for API consumers and logs, and where it applies
 * the field to blame and the index a game expects next. Domain code returns it (the move path,
 * where a refusal is common) or throws it (request handlers); it knows nothing of HTTP: the HTTP
 * layer answers it with the code's status (app.ts), the socket as an `error` message.
 */
export class Refusal<C extends ErrorCode = ErrorCode> extends Error {
  readonly field?: string;
  readonly nextIndex?: number;
  readonly params: ErrorParams<C>;

  constructor(
    readonly code: C,
    message: string,
    ...[details]: keyof ErrorParams<C> extends never ? [RefusalDetails<C>?] : [RefusalDetails<C>]
  ) {
    super(message);
    this.params = details?.params ?? ({} as ErrorParams<C>);
    if (details?.field !== undefined) this.field = details.field;
    if (details?.nextIndex !== undefined) this.nextIndex = details.nextIndex;
  }

  /** The code with its parameters, as the wire carries them (the constructor matched them). */
  get coded(): CodedError {
    return { code: this.code, params: this.params } as CodedError;
  }
}

/** The parameters of an input refusal, from the first zod issue. */
export type InputParams = ErrorParams<'invalid-body'>;

/** The first zod issue as a field path (dotted), a sentence naming the rule, and the same as parameters. */
export function describeZodError(error: ZodError): { field?: string; message: string; params: InputParams } {
  const issue = error.issues[0];
  if (!issue) return { message: 'invalid input', params: { field: null, issue: 'invalid', min: null, max: null } };
  const bound = (value: unknown): number | null => (typeof value === 'number' ? value : typeof value === 'bigint' ? Number(value) : null);
  // A refinement names its rule and bounds in its params (contract/http.ts); zod's own issues by their code.
  const custom = issue.code === 'custom' ? (issue.params ?? {}) : {};
  const min = issue.code === 'too_small' ? bound(issue.minimum) : bound(custom.min);
  const max = issue.code === 'too_big' ? bound(issue.maximum) : bound(custom.max);
  const rule = typeof custom.rule === 'string' ? custom.rule : issue.code;
  if (issue.code === 'unrecognized_keys') {
    const field = [...issue.path.map(String), issue.keys[0]!].join('.');
    return { field, message: `${field}: unknown field (a typo?)`, params: { field, issue: rule, min, max } };
  }
  const field = issue.path.map(String).join('.');
  return field === ''
    ? { message: issue.message, params: { field: null, issue: rule, min, max } }
    : { field, message: `${field}: ${issue.message}`, params: { field, issue: rule, min, max } };
}
