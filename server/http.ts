import type { ZodType, z } from 'zod';
import type { ErrorCode } from '../contract/index.js';
import { describeZodError, Refusal } from './errors.js';

/** Reads a part of a request with its zod schema, or answers 400 `code` naming the field and the rule. */
function parseWith<S extends ZodType>(code: ErrorCode, schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value ?? {});
  if (parsed.success) return parsed.data;
  const { field, message } = describeZodError(parsed.error);
  throw new Refusal(code, message, field === undefined ? {} : { field });
}

/** A JSON body, or 400 `invalid-body`. */
export const parseBody = <S extends ZodType>(schema: S, body: unknown): z.output<S> => parseWith('invalid-body', schema, body);
/** The query string, or 400 `invalid-query`. */
export const parseQuery = <S extends ZodType>(schema: S, query: unknown): z.output<S> => parseWith('invalid-query', schema, query);
/** The path parameters, or 400 `invalid-param`. */
export const parseParams = <S extends ZodType>(schema: S, params: unknown): z.output<S> => parseWith('invalid-param', schema, params);
