import swagger from '@fastify/swagger';
import fp from 'fastify-plugin';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { openapiAnswer } from '../../contract/index.js';
import { serve } from '../http.js';

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
    serve(app, 'openapi', async () => app.swagger() as unknown as z.output<typeof openapiAnswer>);
  },
  { name: 'openapi' },
);
