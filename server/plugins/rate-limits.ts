import rateLimit from '@fastify/rate-limit';
import type { onRequestHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { ROUTES, type RouteName } from '../../contract/index.js';
import { Refusal } from '../errors.js';

export interface RateLimit {
  /** Requests allowed per address... */
  max: number;
  /** ...in this window. */
  windowMs: number;
}

/** Per client address (the socket's, or the proxy's if the app is set to trust one). */
export interface RateLimits {
  createPlayer: RateLimit;
  createRace: RateLimit;
  dailyStart: RateLimit;
  createSeries: RateLimit;
  seriesDeal: RateLimit;
  /** Reading or claiming a device link, and a passkey sign-in's two steps: one count for all, what guessing a code would take. */
  signIn: RateLimit;
  /** Ghost races started, against a chosen game or any. */
  ghostStart: RateLimit;
  /** Joining and leaving the quick-race pool, each. */
  pool: RateLimit;
  /** Websockets open at once; the frames of each have their own budget (ws.ts). */
  socketsPerAddress: number;
}

/** Generous for people (a household behind one address), tight for a script. */
export const DEFAULT_RATE_LIMITS: RateLimits = {
  createPlayer: { max: 20, windowMs: 60_000 },
  createRace: { max: 30, windowMs: 60_000 },
  dailyStart: { max: 30, windowMs: 60_000 },
  createSeries: { max: 30, windowMs: 60_000 },
  seriesDeal: { max: 60, windowMs: 60_000 },
  // 100 guesses in a link's 10 minutes against 2^50 codes (device-links.ts).
  signIn: { max: 10, windowMs: 60_000 },
  ghostStart: { max: 30, windowMs: 60_000 },
  pool: { max: 60, windowMs: 60_000 },
  socketsPerAddress: 32,
};

/** The limit of each limited route of the contract's table, by route name. */
const LIMITED_ROUTES = {
  createPlayer: 'createPlayer',
  createRace: 'createRace',
  startDaily: 'dailyStart',
  createSeries: 'createSeries',
  dealSeries: 'seriesDeal',
  linkOwner: 'signIn',
  claimLink: 'signIn',
  passkeySignInOptions: 'signIn',
  passkeySignIn: 'signIn',
  raceGhost: 'ghostStart',
  findGhost: 'ghostStart',
  joinPool: 'pool',
  leavePool: 'pool',
} as const satisfies { readonly [name in RouteName]?: keyof RateLimits };

const routeKey = (name: RouteName): string => `${ROUTES[name].method} ${ROUTES[name].path}`;
const SOCKET_ROUTE = routeKey('socket');
const counted = Symbol('lucie.countedSocket');

/**
 * Rate limits on the routes that create something (identities, races, daily games, series and their deals, ghost races) and a cap on
 * open websockets per address. Registered before the routes it limits: it hooks them as they
 * are declared, so the route plugins stay unaware of it.
 */
export default fp<{ limits: RateLimits }>(
  async (app, { limits }) => {
    await app.register(rateLimit, {
      global: false,
      errorResponseBuilder: (_request, context) =>
        new Refusal('rate-limited', `too many requests from your address: at most ${context.max} here per ${context.after}; retry after that`, {
          params: { limit: context.max, seconds: Math.ceil(context.ttl / 1000) },
        }),
    });
    // One counter per limit, shared by the routes it covers (a link's code is guessed on two routes).
    const byLimit = new Map<keyof RateLimits, onRequestHookHandler>();
    const hookOf = (name: Exclude<keyof RateLimits, 'socketsPerAddress'>): onRequestHookHandler => {
      const { max, windowMs } = limits[name];
      if (!byLimit.has(name)) byLimit.set(name, app.rateLimit({ max, timeWindow: windowMs }) as onRequestHookHandler);
      return byLimit.get(name)!;
    };
    const hooks = new Map<string, onRequestHookHandler>(Object.entries(LIMITED_ROUTES).map(([route, name]) => [routeKey(route as RouteName), hookOf(name)]));
    hooks.set(SOCKET_ROUTE, capSockets(limits.socketsPerAddress));

    app.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) {
        const hook = hooks.get(`${method} ${route.url}`);
        if (hook) route.onRequest = [...[route.onRequest ?? []].flat(), hook];
      }
    });
  },
  { name: 'rate-limits' },
);

/** Counts each TCP connection that asks for the socket route once, until it closes. */
function capSockets(cap: number): onRequestHookHandler {
  const open = new Map<string, number>();
  return async (request) => {
    const connection = request.raw.socket as typeof request.raw.socket & { [counted]?: true };
    if (connection[counted]) return;
    const address = request.ip;
    const count = open.get(address) ?? 0;
    if (count >= cap) throw new Refusal('too-many-sockets', `at most ${cap} open websockets per address: close one first`, { params: { limit: cap } });
    open.set(address, count + 1);
    connection[counted] = true;
    connection.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left <= 0) open.delete(address);
      else open.set(address, left);
    });
  };
}
