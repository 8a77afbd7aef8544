import fp from 'fastify-plugin';
import { closeDatabase, openDatabase, type DatabaseOptions, type Db } from '../db/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Db;
  }
}

/** The SQLite database (migrated on open), closed last when the app closes. */
export default fp<{ dataDir: string } & Omit<DatabaseOptions, 'log'>>(
  async (app, { dataDir, ...options }) => {
    const db = openDatabase(dataDir, { ...options, log: app.log });
    app.decorate('db', db);
    app.addHook('onClose', async () => {
      await closeDatabase(db);
      app.log.info('database closed');
    });
  },
  { name: 'db' },
);
