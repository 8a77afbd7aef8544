import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';

/**
 * The client's Content-Security-Policy, as strict as the built client allows: its script and
 * stylesheet come from this origin only, the socket goes back to it ('self' covers ws: on the
 * same host), and no page may frame it. No 'unsafe-eval' (Svelte compiles ahead of time) and no
 * 'unsafe-inline': Vite emits no inline script or style, and Svelte sets element styles through
 * the CSSOM (`element.style`), which CSP does not police. The favicon is a data: image.
 */
export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  'style-src': ["'self'"],
  'img-src': ["'self'", 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'manifest-src': ["'self'"],
  'base-uri': ["'none'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
  'object-src': ["'none'"],
};

/**
 * Security headers on every answer (@fastify/helmet): the CSP above, `nosniff`, no framing, no
 * referrer sent elsewhere. `upgrade-insecure-requests` is left out: Lucie may be served over
 * plain HTTP on a local network, where it would break every asset.
 */
export default fp(
  async (app) => {
    await app.register(helmet, {
      contentSecurityPolicy: { useDefaults: false, directives: CONTENT_SECURITY_POLICY },
      frameguard: { action: 'deny' },
      referrerPolicy: { policy: 'same-origin' },
    });
  },
  { name: 'security' },
);
