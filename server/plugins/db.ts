import fp from 'fastify-plugin';
import { openDatabase, type Db, type SynchronousMode } from '../db/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
  }
}

/** The SQLite database (migrated on open), closed last when the app closes. */
export default fp<{ dataDir: string; synchronous: SynchronousMode }>(
  async (app, { dataDir, synchronous }) => {
    const db = openDatabase(dataDir, synchronous);
    app.decorate('db', db);
    app.addHook('onClose', async () => {
      db.$client.close();
      app.log.info('database closed');
    });
  },
  { name: 'db' },
);
