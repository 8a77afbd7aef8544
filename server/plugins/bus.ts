import fp from 'fastify-plugin';
import { RedisBus } from '../scale/bus.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The Redis bus between instances (REDIS_URL), or null for a single instance. */
    bus: RedisBus | null;
  }
}

/** How long readiness waits for Redis before calling it unreachable. */
const PING_TIMEOUT_MS = 2000;

/** Whether Redis answers a ping in time. */
export async function busReady(bus: RedisBus): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), PING_TIMEOUT_MS);
  });
  try {
    return await Promise.race([bus.ping().then(() => true), late]);
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/** Connects to Redis at start (an unreachable one stops the start) and closes the connection last. */
export default fp<{ redisUrl?: string; prefix?: string }>(
  async (app, { redisUrl, prefix }) => {
    if (redisUrl === undefined) {
      app.decorate('bus', null);
      return;
    }
    const bus = new RedisBus(redisUrl, prefix);
    try {
      await bus.connect();
    } catch (error) {
      await bus.close();
      throw new Error(`cannot connect to Redis at REDIS_URL (${(error as Error).message})`, { cause: error });
    }
    app.decorate('bus', bus);
    app.addHook('onClose', async () => bus.close());
  },
  { name: 'bus' },
);
