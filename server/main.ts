// The server's entry point. `npm start` builds it to dist/app/server/main.js and runs that file as
// its own process; in development `node --import tsx server/main.ts` runs the sources.
import { join, resolve } from 'node:path';
import { buildApp, type AppOptions } from './app.js';
import { SYNCHRONOUS_MODES, type SynchronousMode } from './db/index.js';
import { dataDirProblem } from './start-failure.js';
import { DEFAULT_STOP_GRACE_MS, gracefulStop } from './stop.js';

const port = Number(process.env.PORT ?? 3000);
const host = process.env.HOST ?? '127.0.0.1';
const dataDir = resolve(process.env.DATA_DIR ?? './data');
// Unset: the client built beside this file (dist/client of the build).
const clientDir = process.env.CLIENT_DIR === undefined ? undefined : resolve(process.env.CLIENT_DIR);

const countdownMs = process.env.COUNTDOWN_MS === undefined ? undefined : Number(process.env.COUNTDOWN_MS);

/** A duration in whole seconds from the environment, or the default. */
function seconds(name: string): number | undefined {
  const text = process.env[name];
  if (text === undefined) return undefined;
  if (!/^[1-9][0-9]*$/.test(text)) {
    console.error(`${name} must be a whole number of seconds (at least 1), not "${text}"`);
    process.exit(2);
  }
  return Number(text) * 1000;
}
const lifecycle = {
  ...(seconds('GRACE_SECONDS') !== undefined && { graceMs: seconds('GRACE_SECONDS')! }),
  ...(seconds('LOBBY_LIMIT_SECONDS') !== undefined && { lobbyLimitMs: seconds('LOBBY_LIMIT_SECONDS')! }),
  ...(seconds('HARD_CAP_SECONDS') !== undefined && { hardCapMs: seconds('HARD_CAP_SECONDS')! }),
};
// Identities never used for anything are deleted after this many days (see pruning.ts).
const retentionDays = process.env.IDENTITY_RETENTION_DAYS;
if (retentionDays !== undefined && !/^[1-9][0-9]*$/.test(retentionDays)) {
  console.error(`IDENTITY_RETENTION_DAYS must be a whole number of days (at least 1), not "${retentionDays}"`);
  process.exit(2);
}
const pruning = retentionDays === undefined ? {} : { retentionMs: Number(retentionDays) * 86_400_000 };
const synchronous = (process.env.DB_SYNCHRONOUS ?? 'NORMAL').toUpperCase() as SynchronousMode;
if (!SYNCHRONOUS_MODES.includes(synchronous)) {
  console.error(`DB_SYNCHRONOUS must be one of ${SYNCHRONOUS_MODES.join(', ')}`);
  process.exit(2);
}

// Unset: a secret made on first start and kept in the database.
const dailySecret = process.env.DAILY_SECRET || undefined;
if (dailySecret !== undefined && dailySecret.length < 32) {
  console.error('DAILY_SECRET must be at least 32 characters (e.g. `openssl rand -base64 32`)');
  process.exit(2);
}

// Online backups of the SQLite database: every BACKUP_INTERVAL_MIN minutes (default 15, may be
// fractional; 0: none) into BACKUP_DIR (default DATA_DIR/backups), the newest BACKUP_KEEP (8) kept
// and one a day for BACKUP_DAYS (7) days.
function wholeOrDecimal(name: string, fallback: number, integer: boolean): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  if (!(integer ? /^[0-9]+$/ : /^[0-9]+(\.[0-9]+)?$/).test(text)) {
    console.error(`${name} must be ${integer ? 'a whole number' : 'a number'} (at least 0), not "${text}"`);
    process.exit(2);
  }
  return Number(text);
}
const backupMinutes = wholeOrDecimal('BACKUP_INTERVAL_MIN', 15, false);
const backups =
  backupMinutes === 0
    ? undefined
    : {
        dir: resolve(process.env.BACKUP_DIR || join(dataDir, 'backups')),
        intervalMs: Math.max(1000, Math.round(backupMinutes * 60_000)),
        keep: Math.max(1, wholeOrDecimal('BACKUP_KEEP', 8, true)),
        days: wholeOrDecimal('BACKUP_DAYS', 7, true),
      };

// Set: GET /metrics answers Prometheus text to `Authorization: Bearer METRICS_TOKEN`; unset: no /metrics.
const metricsToken = process.env.METRICS_TOKEN || undefined;
if (metricsToken !== undefined && metricsToken.length < 16) {
  console.error('METRICS_TOKEN must be at least 16 characters (e.g. `openssl rand -hex 16`)');
  process.exit(2);
}

// Set: the operator routes (/api/operator/…) answer to `Authorization: Bearer ADMIN_TOKEN`; unset: they refuse everyone.
const adminToken = process.env.ADMIN_TOKEN || undefined;
if (adminToken !== undefined && adminToken.length < 16) {
  console.error('ADMIN_TOKEN must be at least 16 characters (e.g. `openssl rand -hex 16`)');
  process.exit(2);
}
// The refused-words list names are checked against; unset: deploy/refused-names.txt.
const refusedNamesFile = process.env.REFUSED_NAMES_FILE ? resolve(process.env.REFUSED_NAMES_FILE) : undefined;

// Off only for load and chaos tests, where every robot shares one address: sizes stay enforced.
const unlimited = process.env.RATE_LIMITS === 'off';

// Set: PostgreSQL stores everything (several instances may share it); unset: SQLite in DATA_DIR.
const databaseUrl = process.env.DATABASE_URL || undefined;
if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
  console.error('DATABASE_URL must be a postgres:// or postgresql:// URL');
  process.exit(2);
}

const redisUrl = process.env.REDIS_URL || undefined;
if (redisUrl !== undefined && !/^rediss?:\/\//.test(redisUrl)) {
  console.error('REDIS_URL must be a redis:// or rediss:// URL');
  process.exit(2);
}
// With Redis: how soon another instance takes the timers over from one that died (milliseconds).
const leaseText = process.env.TIMER_LEASE_MS;
if (leaseText !== undefined && !/^[1-9][0-9]{2,}$/.test(leaseText)) {
  console.error(`TIMER_LEASE_MS must be a whole number of milliseconds (at least 100), not "${leaseText}"`);
  process.exit(2);
}
// With Redis: how often the timer owner arms, from the store, timers whose notice never reached it (milliseconds).
const rescanText = process.env.TIMER_RESCAN_MS;
if (rescanText !== undefined && !/^[1-9][0-9]{2,}$/.test(rescanText)) {
  console.error(`TIMER_RESCAN_MS must be a whole number of milliseconds (at least 100), not "${rescanText}"`);
  process.exit(2);
}
// Keys and channels of this deployment, so several can share one Redis.
const redisPrefix = process.env.REDIS_PREFIX || undefined;
// How soon an instance that stopped beating counts as dead (its players disconnected); it beats three times as often.
const presenceTtlMs = process.env.PRESENCE_TTL_MS === undefined ? undefined : Number(process.env.PRESENCE_TTL_MS);
if (presenceTtlMs !== undefined && !(Number.isInteger(presenceTtlMs) && presenceTtlMs >= 300)) {
  console.error('PRESENCE_TTL_MS must be a whole number of milliseconds, at least 300');
  process.exit(2);
}

// The site's address as players reach it (`https://lucie.example`): device links point there and
// passkeys are bound to it; unset, the origin each request came to (fine on one host name).
const publicOrigin = process.env.PUBLIC_ORIGIN || undefined;
if (publicOrigin !== undefined && !/^https?:\/\/[^/?#]+$/.test(publicOrigin)) {
  console.error(`PUBLIC_ORIGIN must be an origin such as https://lucie.example (no path), not "${publicOrigin}"`);
  process.exit(2);
}
// Passkeys' relying party id: PUBLIC_ORIGIN's host name unless set (a parent domain of it, to share passkeys across subdomains).
const passkeyRpId = process.env.PASSKEY_RP_ID || undefined;

// How long a player waits alone in the quick-race pool before a ghost race is offered (milliseconds, default 30 s).
const ghostAfterText = process.env.POOL_GHOST_AFTER_MS;
if (ghostAfterText !== undefined && !/^[1-9][0-9]{2,}$/.test(ghostAfterText)) {
  console.error(`POOL_GHOST_AFTER_MS must be a whole number of milliseconds (at least 100), not "${ghostAfterText}"`);
  process.exit(2);
}

const options: AppOptions = {
  dataDir,
  ...(ghostAfterText !== undefined && { pool: { rules: { ghostAfterMs: Number(ghostAfterText) } } }),
  ...(publicOrigin !== undefined && { publicOrigin }),
  ...(passkeyRpId !== undefined && { passkeyRpId }),
  ...(redisUrl !== undefined && { redisUrl }),
  ...(redisPrefix !== undefined && { redisPrefix }),
  ...(presenceTtlMs !== undefined && { presence: { ttlMs: presenceTtlMs, heartbeatMs: Math.round(presenceTtlMs / 3) } }),
  ...(databaseUrl !== undefined && { databaseUrl }),
  timerLease: {
    ...(leaseText !== undefined && { ttlMs: Number(leaseText) }),
    ...(rescanText !== undefined && { rescanMs: Number(rescanText) }),
  },
  logLevel: process.env.LOG_LEVEL ?? 'info',
  countdownMs,
  synchronous,
  dailySecret,
  lifecycle,
  pruning,
  clientDir,
  metricsToken,
  adminToken,
  ...(refusedNamesFile !== undefined && { refusedNamesFile }),
  ...(backups !== undefined && { backups }),
  ...(unlimited && { rateLimits: false, socketLimits: { burst: 1_000_000, perSecond: 1_000_000 } }),
};

const app = await buildApp(options).catch((error: unknown) => {
  // The folder of the SQLite database is the one start failure an operator causes most: one sentence.
  const problem = databaseUrl === undefined ? dataDirProblem(error, dataDir) : undefined;
  if (problem === undefined) throw error;
  console.error(problem);
  process.exit(1);
});

const countOf = (names: string[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const name of names) counts[name] = (counts[name] ?? 0) + 1;
  return counts;
};
const shutdown = gracefulStop({
  graceMs: seconds('STOP_GRACE_SECONDS') ?? DEFAULT_STOP_GRACE_MS,
  log: app.log,
  close: () => app.close(),
  exit: (code) => process.exit(code),
  // What holds the close open, for whoever reads the log of a slow stop.
  pending: () => ({ websockets: app.websocketServer.clients.size, resources: countOf(process.getActiveResourcesInfo()) }),
});
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);

// `npm start` names its own pid here: no signal reaches us when npm is killed with SIGKILL, so
// leave with it rather than linger as an orphan holding the port a supervisor restarts on.
const parentPid = Number(process.env.LUCIE_PARENT_PID);
if (Number.isInteger(parentPid) && parentPid > 1) {
  const watch = setInterval(() => {
    try {
      process.kill(parentPid, 0);
    } catch {
      clearInterval(watch);
      app.log.warn({ parentPid }, 'the process that started us is gone');
      shutdown('SIGHUP');
    }
  }, 500).unref();
}

try {
  await app.listen({ port, host });
  app.log.info(databaseUrl === undefined ? { dataDir } : { storage: 'postgres' }, 'lucie is ready');
} catch (error) {
  app.log.error({ err: error }, 'cannot start');
  process.exit(1);
}
