import swagger from '@fastify/swagger';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ERROR_ANSWERS } from '../http.js';

/** What `/api/openapi.json` answers: an OpenAPI 3.1 document (its inside is @fastify/swagger's). */
const openapiAnswer = z.looseObject({ openapi: z.string(), info: z.looseObject({ title: z.string() }), paths: z.record(z.string(), z.unknown()) });

/**
 * The OpenAPI document at `/api/openapi.json`, written from the zod schemas every route
 * declares. Registered before the routes: it collects them as they are declared.
 */
export default fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Lucie',
          description: 'Seed races, daily deals and replays of La Belle Lucie. Errors answer the HttpError shape; live play is on the websocket `/ws` (server/API.md).',
          version: '1',
        },
      },
      transform: jsonSchemaTransform,
    });
    app.withTypeProvider<ZodTypeProvider>().get(
      '/api/openapi.json',
      { schema: { summary: 'This document', response: { 200: openapiAnswer, ...ERROR_ANSWERS } } },
      async () => app.swagger() as unknown as z.output<typeof openapiAnswer>,
    );
  },
  { name: 'openapi' },
);
