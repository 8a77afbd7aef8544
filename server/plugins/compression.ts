import compress from '@fastify/compress';
import fp from 'fastify-plugin';

/**
 * Answers of 1 KB and more go out compressed when the client accepts it (brotli, else gzip):
 * the OpenAPI document (about 144 KB as JSON, a tenth of that in brotli), leaderboards, records,
 * histories. The built client's assets are precompressed at build time and sent as they are
 * (an answer that already has a content-encoding is left alone). Registered before the routes.
 */
export default fp(
  async (app) => {
    await app.register(compress, { global: true, threshold: 1024, encodings: ['br', 'gzip'] });
  },
  { name: 'compression' },
);
