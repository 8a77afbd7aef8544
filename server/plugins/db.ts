import fp from 'fastify-plugin';
import { openDatabase, type DatabaseOptions, type Db } from '../db/index.js';
import { openPgDatabase } from '../db/pg/index.js';
import { pgStorage } from '../db/pg/storage.js';
import { sqliteStorage } from '../db/storage.js';
import type { Storage } from '../stores.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every store, on SQLite or PostgreSQL. */
    storage: Storage;
    /** The SQLite database itself, when the storage is SQLite (tests and tools read it). */
    db: Db;
  }
}

export interface StorageOptions extends Omit<DatabaseOptions, 'log'> {
  dataDir: string;
  /** postgres://…: everything is stored there (migrated on start) instead of SQLite in dataDir. */
  databaseUrl?: string;
}

/** The database (migrated on open), closed last when the app closes. */
export default fp<StorageOptions>(
  async (app, { dataDir, databaseUrl, ...options }) => {
    let storage: Storage;
    if (databaseUrl === undefined) {
      const db = openDatabase(dataDir, { ...options, log: app.log });
      app.decorate('db', db);
      storage = sqliteStorage(db);
    } else {
      storage = pgStorage(await openPgDatabase(databaseUrl, options.synchronous === undefined ? {} : { synchronous: options.synchronous }));
    }
    app.decorate('storage', storage);
    app.addHook('onClose', async () => {
      await storage.close();
      app.log.info('database closed');
    });
  },
  { name: 'db' },
);
