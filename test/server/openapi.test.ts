// /api/openapi.json is written from the routes' own schemas: every route the app registers is
// in it, with the parts its schema declares (path and query parameters, body, each answer).
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';

interface Operation {
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, { schema: object }> };
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
}

let app: FastifyInstance;
let paths: Record<string, Record<string, Operation>>;

beforeAll(async () => {
  app = await buildApp({ dataDir: ':memory:', logLevel: 'silent', clientDir: null });
  await app.ready();
  const response = await app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(response.statusCode).toBe(200);
  expect(response.json().openapi).toBe('3.1.0');
  paths = response.json().paths;
});
afterAll(async () => app.close());

/** `/api/races/:code` as OpenAPI writes it. */
const openapiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');
const keysOf = (schema: unknown) => Object.keys((schema as { shape?: object } | undefined)?.shape ?? {});

describe('the OpenAPI document', () => {
  // HEAD routes are fastify's own copies of the GET ones.
  const documented = () => app.routeTable.routes.filter((route) => route.method !== 'HEAD');

  it('lists every route the app registers, and nothing else', () => {
    const routes = documented().map((route) => `${route.method} ${openapiPath(route.url)}`);
    expect(routes.length).toBeGreaterThan(20);
    const listed = Object.entries(paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
    expect(listed.sort()).toEqual(routes.sort());
  });

  it('gives each route its answers, the error shape among them', () => {
    for (const route of documented()) {
      const operation = paths[openapiPath(route.url)]![route.method.toLowerCase()]!;
      const declared = Object.keys(route.schema?.response ?? {}).map((status) => status.toUpperCase());
      expect(declared, `${route.method} ${route.url}`).toEqual(expect.arrayContaining(['4XX', '5XX']));
      expect(declared.some((status) => /^[12]\d\d$/.test(status)), `${route.method} ${route.url} declares its success`).toBe(true);
      expect(Object.keys(operation.responses).sort()).toEqual(declared.sort());
      // 101 (the websocket) has no body to describe.
      for (const status of declared.filter((status) => status !== '101')) expect(operation.responses[status]!.content?.['application/json']?.schema, `${route.url} ${status}`).toBeTypeOf('object');
      const error = operation.responses['4XX']!.content!['application/json']!.schema as { required: string[] };
      expect(error.required).toEqual(expect.arrayContaining(['statusCode', 'code', 'message']));
    }
  });

  it('gives each route its path and query parameters and its body', () => {
    for (const route of documented()) {
      const operation = paths[openapiPath(route.url)]![route.method.toLowerCase()]!;
      const parameters = (where: string) => (operation.parameters ?? []).filter((parameter) => parameter.in === where).map((parameter) => parameter.name);
      const pathNames = [...route.url.matchAll(/:(\w+)/g)].map((match) => match[1]);
      expect(keysOf(route.schema?.params), `${route.url} declares its path parameters`).toEqual(pathNames);
      expect(parameters('path')).toEqual(pathNames);
      expect(parameters('query').sort()).toEqual(keysOf(route.schema?.querystring).sort());
      expect(operation.requestBody !== undefined, `${route.method} ${route.url} body`).toBe(route.schema?.body !== undefined);
    }
    expect(Object.keys(paths['/api/players']!.post!.requestBody!.content['application/json']!.schema)).toContain('properties');
  });
});
