import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { ERROR_STATUS, type HttpError as HttpErrorBody } from '../contract/index.js';
import { systemClock, type Clock } from './clock.js';
import { STORAGE_RETRY_MS, type DatabaseOptions, type SynchronousMode } from './db/index.js';
import { Refusal } from './errors.js';
import { BODY_LIMIT, fastifyErrorAnswer, refuseNullBodies, refusalAnswer, RouteTable, validatorCompiler } from './http.js';
import { Hub } from './hub.js';
import { DEFAULT_LIFECYCLE_RULES, type LifecycleRules } from './races/lifecycle.js';
import type { PruningRules } from './pruning.js';
import { DEFAULT_ANALYSIS_RULES, type AnalysisRules } from './analyses.js';
import analysesPlugin from './plugins/analyses.js';
import busPlugin from './plugins/bus.js';
import schedulerPlugin, { DEFAULT_TIMER_LEASE, type TimerLease } from './plugins/scheduler.js';
import clientPlugin from './plugins/client.js';
import compressionPlugin from './plugins/compression.js';
import metricsPlugin from './plugins/metrics.js';
import moderationPlugin from './plugins/moderation.js';
import { DEFAULT_REFUSED_NAMES_FILE, loadRefusedNames } from './refused-names.js';
import backupsPlugin, { type BackupRules } from './plugins/backups.js';
import dailyPlugin from './plugins/daily.js';
import dbPlugin from './plugins/db.js';
import eventsPlugin from './plugins/events.js';
import gamesPlugin from './plugins/games.js';
import ghostsPlugin from './plugins/ghosts.js';
import healthPlugin from './plugins/health.js';
import openapiPlugin from './plugins/openapi.js';
import passkeysPlugin from './plugins/passkeys.js';
import playersPlugin from './plugins/players.js';
import poolPlugin, { DEFAULT_POOL_OPTIONS, type PoolOptions } from './plugins/pool.js';
import pruningPlugin from './plugins/pruning.js';
import racesPlugin from './plugins/races.js';
import ratingsPlugin from './plugins/ratings.js';
import rateLimitsPlugin, { DEFAULT_RATE_LIMITS, type RateLimits } from './plugins/rate-limits.js';
import replaysPlugin from './plugins/replays.js';
import securityPlugin from './plugins/security.js';
import seriesPlugin from './plugins/series.js';
import transportPlugin from './plugins/transport.js';
import wsPlugin, { DEFAULT_SOCKET_LIMITS, type SocketLimits } from './plugins/ws.js';
import { PROGRESS_INTERVAL_MS } from './races/service.js';
import type { PresenceTiming } from './scale/presence.js';

declare module 'fastify' {
  interface FastifyInstance {
    clock: Clock;
    hub: Hub;
    /** Every route's path and methods, for 405s (http.ts). */
    routeTable: RouteTable;
  }
}

export interface AppOptions {
  /** Where lucie.db lives (created if missing), or ':memory:' for tests. */
  dataDir: string;
  /** postgres://…: everything is stored in that PostgreSQL database instead of SQLite in dataDir. */
  databaseUrl?: string;
  /** redis://…: the Redis that connects instances (readiness checks it); the holder of its timer lease runs the timers. */
  redisUrl?: string;
  /** The Redis lease whose holder runs the timers (plugins/scheduler.ts); DEFAULT_TIMER_LEASE by default. */
  timerLease?: Partial<TimerLease>;
  /** Prefix of every Redis key and channel ('lucie' by default): deployments sharing a Redis keep apart. */
  redisPrefix?: string;
  /** With Redis: how often instances beat, and how soon a silent one counts as dead (scale/presence.ts). */
  presence?: Partial<PresenceTiming>;
  /** SQLite's commit durability (see db/index.ts); NORMAL by default. */
  synchronous?: SynchronousMode;
  /** Lock waits and checkpoints (see db/index.ts); the defaults suit production. */
  storage?: Pick<DatabaseOptions, 'busyTimeoutMs' | 'checkpoints' | 'walLimitBytes'>;
  /** pino level; 'silent' for tests. */
  logLevel?: string;
  clock?: Clock;
  /** From start to deal. */
  countdownMs?: number;
  /** A race's progress at most this often (PROGRESS_INTERVAL_MS by default); 0 sends each move's at once. */
  progressIntervalMs?: number;
  socketLimits?: Partial<SocketLimits>;
  /** Grace period, lobby limit and hard cap (races/lifecycle.ts); each defaults to DEFAULT_LIFECYCLE_RULES. */
  lifecycle?: Partial<LifecycleRules>;
  /** Per-address limits on creating things and on open sockets; false turns them off (benches, load tests). */
  rateLimits?: Partial<RateLimits> | false;
  /** The site's origin (PUBLIC_ORIGIN): device links point there, passkeys are bound to it; by default each request's own. */
  publicOrigin?: string;
  /** The passkeys' relying party id (PASSKEY_RP_ID); by default the origin's host name. */
  passkeyRpId?: string;
  /** The built client to serve; null serves the API only. */
  clientDir?: string | null;
  /** The daily seeds' secret; by default one made on first start and kept in the database. */
  dailySecret?: string;
  /** When unused identities are deleted (pruning.ts); DEFAULT_PRUNING_RULES by default. */
  pruning?: Partial<PruningRules>;
  /** `Authorization: Bearer TOKEN` reads `/metrics` (Prometheus text); unset: no /metrics route. */
  metricsToken?: string | undefined;
  /** `Authorization: Bearer TOKEN` opens the operator routes (moderation); unset: they refuse everyone. */
  adminToken?: string | undefined;
  /** The refused-words list names are checked against (refused-names.ts); DEFAULT_REFUSED_NAMES_FILE by default. */
  refusedNamesFile?: string;
  /** Scheduled online backups of the SQLite database (plugins/backups.ts); none by default. */
  backups?: BackupRules;
  /** The quick-race pool's rules and the lobby's window (plugins/pool.ts); DEFAULT_POOL_OPTIONS by default. */
  pool?: { rules?: Partial<PoolOptions['rules']>; lobbyWindowMs?: number };
  /** The background solver's limits and worker (analyses.ts); DEFAULT_ANALYSIS_RULES by default. */
  analysis?: Partial<AnalysisRules>;
}

export const DEFAULT_CLIENT_DIR = fileURLToPath(new URL('../dist/client', import.meta.url));
export const DEFAULT_COUNTDOWN_MS = 3000;

/** Tokens travel in the websocket URL: they never reach the logs. */
export const redactToken = (url: string): string => url.replace(/([?&]token=)[^&]*/g, '$1[redacted]');

/** The whole app, from small plugins; `ready()` it (or `listen`) before use. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: options.logLevel ?? 'info',
      // Keep the token out of every log line, including fastify's own request logs.
      serializers: {
        req: (request: FastifyRequest) => ({ method: request.method, url: redactToken(request.url), remoteAddress: request.ip }),
      },
    },
    bodyLimit: BODY_LIMIT,
    // Errors met before a route is found (a bad %-encoding, an over-long parameter) answer like any other.
    frameworkErrors: (error, request, reply: FastifyReply) => {
      const body = fastifyErrorAnswer(error, request);
      return reply.code(body.statusCode).send(body);
    },
  });
  app.decorate('clock', options.clock ?? systemClock);
  app.decorate('hub', new Hub());
  // First of the close: an upgrade arriving while the other plugins close would get fastify's 503
  // on a socket nobody then ends, and the server's close would wait for it forever. Without an
  // upgrade listener Node hands it to the router as a plain request: 503 and the connection closed.
  // No move is taken from here on either: HTTP already answers 503, so a balancer has turned away,
  // and a move taken while the timers are handed over would be answered by an instance on its way out.
  app.addHook('preClose', (done) => {
    app.server.removeAllListeners('upgrade');
    if (app.hasDecorator('games')) app.games.close();
    done();
  });
  // Requests are read and answers written with each route's zod schemas (contract/http.ts).
  app.setValidatorCompiler(validatorCompiler);
  refuseNullBodies(app);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(errorHandler);
  const routeTable = new RouteTable();
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => routeTable.add(route));

  await app.register(compressionPlugin);
  await app.register(metricsPlugin, { token: options.metricsToken });
  await app.register(openapiPlugin);
  await app.register(securityPlugin);
  await app.register(dbPlugin, {
    dataDir: options.dataDir,
    ...(options.databaseUrl !== undefined && { databaseUrl: options.databaseUrl }),
    ...options.storage,
    synchronous: options.synchronous ?? 'NORMAL',
  });
  await app.register(busPlugin, {
    ...(options.redisUrl !== undefined && { redisUrl: options.redisUrl }),
    ...(options.redisPrefix !== undefined && { prefix: options.redisPrefix }),
  });
  await app.register(eventsPlugin);
  await app.register(schedulerPlugin, { ...(options.redisUrl !== undefined && { redisUrl: options.redisUrl }), lease: { ...DEFAULT_TIMER_LEASE, ...options.timerLease } });
  await app.register(transportPlugin, { ...(options.presence && { presence: options.presence }) });
  if (options.rateLimits !== false) await app.register(rateLimitsPlugin, { limits: { ...DEFAULT_RATE_LIMITS, ...options.rateLimits } });
  const refusedNames = loadRefusedNames(options.refusedNamesFile ?? DEFAULT_REFUSED_NAMES_FILE);
  await app.register(playersPlugin, { publicOrigin: options.publicOrigin, refusedNames });
  await app.register(passkeysPlugin, { publicOrigin: options.publicOrigin, rpId: options.passkeyRpId });
  await app.register(gamesPlugin);
  await app.register(racesPlugin, {
    countdownMs: options.countdownMs ?? DEFAULT_COUNTDOWN_MS,
    progressIntervalMs: options.progressIntervalMs ?? PROGRESS_INTERVAL_MS,
    ...DEFAULT_LIFECYCLE_RULES,
    ...options.lifecycle,
  });
  await app.register(ratingsPlugin);
  await app.register(poolPlugin, {
    rules: { ...DEFAULT_POOL_OPTIONS.rules, ...options.pool?.rules },
    lobbyWindowMs: options.pool?.lobbyWindowMs ?? DEFAULT_POOL_OPTIONS.lobbyWindowMs,
  });
  await app.register(dailyPlugin, { ...(options.dailySecret !== undefined && { secret: options.dailySecret }) });
  await app.register(seriesPlugin);
  await app.register(replaysPlugin);
  await app.register(ghostsPlugin);
  await app.register(analysesPlugin, { rules: { ...DEFAULT_ANALYSIS_RULES, ...options.analysis } });
  await app.register(moderationPlugin, { adminToken: options.adminToken, refusedNames });
  await app.register(wsPlugin, { limits: { ...DEFAULT_SOCKET_LIMITS, ...options.socketLimits } });
  await app.register(healthPlugin);
  if (options.backups !== undefined && options.databaseUrl === undefined && options.dataDir !== ':memory:') await app.register(backupsPlugin, options.backups);
  await app.register(pruningPlugin, options.pruning ?? {});
  await app.register(clientPlugin, { clientDir: options.clientDir === undefined ? DEFAULT_CLIENT_DIR : options.clientDir });
  return app;
}

/** Every error answers in the one HTTP error shape; a refusal's status is its code's (contract/errors.ts). */
function errorHandler(this: FastifyInstance, error: FastifyError | Refusal, request: FastifyRequest, reply: FastifyReply) {
  let body: HttpErrorBody;
  const storage = this.storage.failure(error);
  if (storage !== undefined) {
    request.log.warn({ err: error, code: storage }, 'storage failure: request refused, nothing changed');
    this.metrics.storageFailed('http');
    body = {
      statusCode: ERROR_STATUS['storage-unavailable'],
      code: 'storage-unavailable',
      message: `the database cannot store this now (${storage}); nothing was changed: retry in a moment`,
      params: { cause: storage },
    };
    reply.header('retry-after', Math.ceil(STORAGE_RETRY_MS / 1000));
  } else if (error instanceof Refusal) {
    body = refusalAnswer(error);
  } else if (error.statusCode !== undefined && error.statusCode < 500) {
    body = fastifyErrorAnswer(error, request);
  } else {
    request.log.error({ err: error }, 'request failed');
    body = { statusCode: 500, code: 'internal', message: 'the server failed on this request', params: {} };
  }
  return reply.code(body.statusCode).send(body);
}
