import type { ZodType, z } from 'zod';
import { describeZodError, HttpError } from './errors.js';

/** Reads a request body with its zod schema, or answers 400 naming the field and the rule. */
export function parseBody<S extends ZodType>(schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const { field, message } = describeZodError(parsed.error);
  throw new HttpError(400, 'invalid-body', message, field);
}
