import type {
  ContextConfigDefault,
  FastifyError,
  FastifyInstance,
  FastifyRequest,
  FastifySchema,
  FastifySchemaCompiler,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
  RouteOptions,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { ZodType } from 'zod';
import { ERROR_STATUS, httpError, ROUTE_SCHEMAS, ROUTES, type HttpError, type RouteName } from '../contract/index.js';
import { describeZodError, Refusal } from './errors.js';

/** The code a request part's schema failure answers with (routes declare schemas for these three parts only). */
const PART_CODES = { body: 'invalid-body', querystring: 'invalid-query', params: 'invalid-param' } as const;

/**
 * Reads each request part with its route's zod schema (contract/http.ts). The type provider's
 * own compiler would report zod's issue list; this one refuses the way the whole API does: one
 * code per part, the field to blame and the rule broken, the same sentence as on the socket.
 */
export const validatorCompiler: FastifySchemaCompiler<ZodType> = ({ schema, httpPart }) => {
  const code = PART_CODES[httpPart as keyof typeof PART_CODES] ?? 'invalid-param';
  return (data) => {
    // A parameter given twice arrives as an array: say so rather than "expected string".
    const repeated = httpPart === 'querystring' && typeof data === 'object' && data !== null && Object.entries(data).find(([, value]) => Array.isArray(value));
    if (repeated) {
      const field = repeated[0];
      return { error: new Refusal(code, `${field}: give this parameter once`, { field, params: { field, issue: 'repeated', min: null, max: null } }) };
    }
    // No body reads as {}: routes whose body fields all have defaults may be sent none.
    const parsed = schema.safeParse(httpPart === 'body' ? (data ?? {}) : data);
    if (parsed.success) return { value: parsed.data };
    const { field, message, params } = describeZodError(parsed.error);
    return { error: new Refusal(code, message, { ...(field !== undefined && { field }), params }) };
  };
};

/**
 * JSON bodies read by fastify's own parser (with its refusal of prototype keys), except a top-level
 * `null`: fastify gives a request sent without a body a null body too, which the validator reads
 * as "no body, take the defaults". Every body of this API is an object; `null` is refused as `[]` is.
 */
export function refuseNullBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  // parseAs 'string': the body arrives as a string, as the default parser takes it.
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) =>
    parse(request, body as string, (error, value) => {
      if (error) done(error);
      else if (value === null) done(new Refusal('invalid-body', 'the body is JSON null: send an object, or no body at all', { params: { field: null, issue: 'null-body', min: null, max: null } }));
      else done(null, value);
    }),
  );
}

/** The error answers every route declares beside its own (the contract's one error shape). */
export const ERROR_ANSWERS = { '4xx': httpError, '5xx': httpError } as const;

/** Route `N`'s schemas as the server declares them: the contract's, and the error answers. */
type ServedSchema<N extends RouteName> = Omit<(typeof ROUTE_SCHEMAS)[N], 'response'> & {
  response: (typeof ROUTE_SCHEMAS)[N]['response'] & typeof ERROR_ANSWERS;
};

/** A handler of route `N`, its request and answer typed from the route's schemas. */
export type RouteHandler<N extends RouteName> = RouteHandlerMethod<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  RouteGenericInterface,
  ContextConfigDefault,
  ServedSchema<N>,
  ZodTypeProvider
>;

/**
 * Registers route `name` of the contract's table (contract/routes.ts) with its schemas: the
 * plugins say only what each route does. `options` adds hooks (the websocket's upgrade).
 */
export function serve<N extends RouteName>(app: FastifyInstance, name: N, handler: RouteHandler<N>, options: Partial<RouteOptions> = {}): void {
  const { method, path } = ROUTES[name];
  const { response, ...parts } = ROUTE_SCHEMAS[name] as { response: object };
  app.route({ ...options, method, url: path, schema: { ...parts, response: { ...response, ...ERROR_ANSWERS } }, handler: handler as RouteOptions['handler'] });
}

/** The largest HTTP body read, in bytes (JSON bodies of this API are a few hundred). */
export const BODY_LIMIT = 16 * 1024;

/** The codes fastify's own refusals are answered with: none of them needs more than the request to fill its parameters. */
type FastifyCode = 'bad-request' | 'uri-too-long' | 'bad-json' | 'too-large' | 'unsupported-media-type' | 'not-found';

/** Fastify's own refusals (routing, content types, body parsing), by their code, in the contract's words. */
const FASTIFY_ERRORS: Record<string, { code: FastifyCode; message?: string }> = {
  FST_ERR_BAD_URL: { code: 'bad-request', message: 'the URL is not valid: a path segment is not UTF-8 once %-decoded' },
  FST_ERR_MAX_PARAM_LENGTH: { code: 'uri-too-long', message: 'a path parameter is longer than any valid one' },
  FST_ERR_CTP_INVALID_JSON_BODY: { code: 'bad-json' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { code: 'bad-json' },
  FST_ERR_CTP_BODY_TOO_LARGE: { code: 'too-large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { code: 'unsupported-media-type', message: 'send the body as application/json' },
};

/**
 * ...and by their status when the code is not one of those (405 and 429 come as refusals:
 * the not-found handler and the rate limiter make them).
 */
const STATUS_CODES: Record<number, FastifyCode> = {
  404: 'not-found',
  413: 'too-large',
  414: 'uri-too-long',
  415: 'unsupported-media-type',
};

/**
 * A client error fastify raised itself, as the contract's error answer: its status is always its
 * code's (a 4xx fastify gives that the contract has no word for is a plain 400 `bad-request`).
 */
export function fastifyErrorAnswer(error: FastifyError, request: Pick<FastifyRequest, 'method' | 'url'>): HttpError {
  const known = FASTIFY_ERRORS[error.code];
  const code = known?.code ?? STATUS_CODES[error.statusCode ?? 400] ?? 'bad-request';
  const message = known?.message ?? error.message;
  const statusCode = ERROR_STATUS[code];
  switch (code) {
    case 'too-large':
      return { statusCode, code, message, params: { limit: BODY_LIMIT } };
    case 'not-found':
      return { statusCode, code, message, params: { method: request.method, path: request.url.split('?')[0]! } };
    default:
      return { statusCode, code, message, params: {} };
  }
}

/** A refusal as the contract's error answer. */
export const refusalAnswer = (refusal: Refusal): HttpError => ({
  statusCode: ERROR_STATUS[refusal.code],
  ...refusal.coded,
  message: refusal.message,
  ...(refusal.field !== undefined && { field: refusal.field }),
});

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export interface RouteEntry {
  method: string;
  url: string;
  pattern: RegExp;
  schema: FastifySchema | undefined;
}

/**
 * Every route as declared: its path by method, to tell "no such path" (404) from "not with this
 * method" (405, with `allow`), which fastify answers alike (404); its schema, for the tests that
 * hold the OpenAPI document to the routes.
 */
export class RouteTable {
  readonly routes: RouteEntry[] = [];

  add({ method, url, schema }: Pick<RouteOptions, 'method' | 'url' | 'schema'>): void {
    const segments = url.split('/').map((segment) => (segment.startsWith(':') ? '[^/]+' : segment === '*' ? '.*' : escapeRegExp(segment)));
    const pattern = new RegExp(`^${segments.join('/')}$`);
    for (const one of [method].flat()) this.routes.push({ method: one, url, pattern, schema });
  }

  /** The methods some route answers at `path`, in the order they were declared. */
  methodsAt(path: string): string[] {
    return [...new Set(this.routes.filter((route) => route.pattern.test(path)).map((route) => route.method))];
  }
}
