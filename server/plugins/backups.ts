import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import fp from 'fastify-plugin';
import { backupAgeSeconds, backupDatabase, backupName, prune, removePartials } from '../backup.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Scheduled backups, when they run (SQLite in a folder, BACKUP_INTERVAL_MIN not 0). */
    backups: BackupSchedule;
  }
}

export interface BackupRules {
  dir: string;
  intervalMs: number;
  /** The newest this many backups are kept... */
  keep: number;
  /** ...and among older ones, one per day for this many days. */
  days: number;
}

export interface BackupSchedule {
  /** Seconds since the newest finished backup began, or undefined when there is none. */
  ageSeconds(): number | undefined;
  /** Takes one now (after the one under way, if any); resolves to its path. */
  now(): Promise<string>;
}

/**
 * An online backup of the SQLite database every `intervalMs` into `dir` (backup.ts), then the
 * retention rule. A backup under way when the app closes is finished first, so the database
 * closes cleanly; a crash during one leaves a temporary file, removed here at the next start.
 */
export default fp<BackupRules>(
  async (app, rules) => {
    mkdirSync(rules.dir, { recursive: true });
    const leftovers = removePartials(rules.dir);
    if (leftovers > 0) app.log.warn({ dir: rules.dir, leftovers }, 'removed the temporary files of backups cut short');
    let running: Promise<string> | undefined;

    const take = async (): Promise<string> => {
      const startedAt = Date.now();
      const path = join(rules.dir, backupName(startedAt));
      await backupDatabase(app.db.$client, path);
      const removed = prune(rules.dir, rules.keep, rules.days, Date.now());
      app.log.info({ path, ms: Date.now() - startedAt, removed }, 'backup taken');
      return path;
    };
    const now = (): Promise<string> => {
      const next = (running?.catch(() => '') ?? Promise.resolve('')).then(take);
      running = next;
      next.then(
        () => running === next && (running = undefined),
        () => running === next && (running = undefined),
      );
      return next;
    };
    const timer = setInterval(() => {
      if (running !== undefined) return; // still taking the last one: skip a beat
      now().catch((error: unknown) => app.log.error({ err: error, dir: rules.dir }, 'backup failed'));
    }, rules.intervalMs);
    timer.unref();

    app.decorate('backups', { ageSeconds: () => backupAgeSeconds(rules.dir, Date.now()), now } satisfies BackupSchedule);
    app.addHook('preClose', async () => {
      clearInterval(timer);
      await running?.catch(() => undefined);
    });
  },
  { name: 'backups', dependencies: ['db'] },
);
