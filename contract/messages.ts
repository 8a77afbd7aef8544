/**
 * Every message a client catalogue must word for the server and the engine, as data: each
 * refusal code (`error.race-closed`) and each engine problem code (`problem.fan-empty`), with the
 * names and kinds of its parameters. A catalogue typed `{ [key in MessageKey]: ... }` is checked
 * against it by the compiler; a test sends every key through the catalogue with sample
 * parameters of each kind. Plain constants (no zod), so the client may import them as values.
 */
import { PROBLEM_PARAM_KINDS, PROBLEM_PARAMS, type Problem, type ProblemCode, type ProblemParamsOf } from '../shared/index.js';
import { ERROR_PARAM_KINDS, ERROR_PARAMS, type CodedError, type ErrorCode, type ErrorParams } from './errors.js';

export type MessageKey = `error.${ErrorCode}` | `problem.${ProblemCode}`;

/** The parameters of the message `key`. */
export type MessageParams<K extends MessageKey> = K extends `error.${infer C extends ErrorCode}`
  ? ErrorParams<C>
  : K extends `problem.${infer C extends ProblemCode}`
    ? ProblemParamsOf<C>
    : never;

/** The kind of each parameter, for both families (a name never means two kinds). */
export const MESSAGE_PARAM_KINDS = { ...PROBLEM_PARAM_KINDS, ...ERROR_PARAM_KINDS } as const;
export type MessageParamKind = (typeof MESSAGE_PARAM_KINDS)[keyof typeof MESSAGE_PARAM_KINDS];

/** Every message key with its parameter names, refusals first. */
export const MESSAGES: { readonly [K in MessageKey]: readonly string[] } = Object.fromEntries([
  ...Object.entries(ERROR_PARAMS).map(([code, names]) => [`error.${code}`, names]),
  ...Object.entries(PROBLEM_PARAMS).map(([code, names]) => [`problem.${code}`, names]),
]) as { readonly [K in MessageKey]: readonly string[] };

export const MESSAGE_KEYS = Object.keys(MESSAGES) as MessageKey[];

/** The message key and parameters of a refusal, or of an engine problem. */
export const refusalMessage = (error: CodedError): { key: MessageKey; params: Readonly<Record<string, unknown>> } => ({
  key: `error.${error.code}`,
  params: error.params,
});
export const problemMessage = (problem: Problem): { key: MessageKey; params: Readonly<Record<string, unknown>> } => {
  const { code, ...params } = problem;
  return { key: `problem.${code}`, params };
};
