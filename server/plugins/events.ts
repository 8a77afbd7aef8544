import fp from 'fastify-plugin';
import { DomainEvents } from '../events.js';

declare module 'fastify' {
  interface FastifyInstance {
    events: DomainEvents;
  }
}

/** The domain events of this instance (events.ts): the services emit, the subscribers are wired by their plugins. */
export default fp(
  async (app) => {
    app.decorate('events', new DomainEvents((error, event) => app.log.error({ err: error, event: event.type }, 'a domain event listener failed')));
  },
  { name: 'events' },
);
