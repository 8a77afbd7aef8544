import fp from 'fastify-plugin';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createRaceBody, kickBody, raceAnswer, raceCodeParams, raceReplayAnswer, rematchBody } from '../../contract/index.js';
import { Refusal } from '../errors.js';
import { ERROR_ANSWERS } from '../http.js';
import { raceReplay } from '../race-replay.js';
import { RaceService, type RaceTiming } from '../races/service.js';
import { currentPlayer } from './players.js';

declare module 'fastify' {
  interface FastifyInstance {
    races: RaceService;
  }
}

const answers = { response: { 200: raceAnswer, ...ERROR_ANSWERS } };
const onRace = { params: raceCodeParams, ...answers };

/** Races over HTTP: create, join, look, start, leave, kick, cancel, rematch, and the replay once finished. Live play is on the websocket. */
export default fp<RaceTiming>(
  async (app, timing) => {
    const races = new RaceService({
      store: app.storage.races,
      players: app.storage.players,
      games: app.games,
      transport: app.transport,
      clock: app.clock,
      log: app.log,
      events: app.events,
      scheduler: app.scheduler,
      timing,
    });
    app.decorate('races', races);
    const { kinds, takeOver } = races.deadlines();
    for (const [kind, handler] of Object.entries(kinds)) app.scheduler.handle(kind, handler);
    // After the games are loaded (the games' takeover runs first).
    app.scheduler.onTakeover(takeOver);
    app.addHook('preClose', async () => races.close());

    const api = app.withTypeProvider<ZodTypeProvider>();
    api.post('/api/races', { schema: { body: createRaceBody, response: { 201: raceAnswer, ...ERROR_ANSWERS } } }, async (request, reply) => {
      const player = currentPlayer(request);
      reply.code(201);
      return { race: await races.create(player, request.body) };
    });

    api.get('/api/races/:code', { schema: onRace }, async (request) => {
      const race = await races.view(request.params.code);
      if (!race) throw new Refusal('unknown-race', `there is no race ${request.params.code}`);
      return { race };
    });

    api.get('/api/races/:code/replay', { schema: { params: raceCodeParams, response: { 200: raceReplayAnswer, ...ERROR_ANSWERS } } }, async (request) =>
      raceReplay(app.storage.replays, races, request.params.code),
    );

    api.post('/api/races/:code/join', { schema: onRace }, async (request) => ({ race: await races.join(currentPlayer(request), request.params.code) }));

    api.post('/api/races/:code/start', { schema: onRace }, async (request) => ({ race: await races.start(currentPlayer(request), request.params.code) }));

    api.post('/api/races/:code/leave', { schema: onRace }, async (request) => ({ race: await races.leave(currentPlayer(request), request.params.code) }));

    api.post('/api/races/:code/kick', { schema: { ...onRace, body: kickBody } }, async (request) => ({
      race: await races.kick(currentPlayer(request), request.params.code, request.body.playerId),
    }));

    api.post('/api/races/:code/cancel', { schema: onRace }, async (request) => ({ race: await races.cancel(currentPlayer(request), request.params.code) }));

    api.post('/api/races/:code/rematch', { schema: { ...onRace, body: rematchBody } }, async (request) => ({
      race: await races.rematch(currentPlayer(request), request.params.code, request.body.answer),
    }));
  },
  { name: 'races', dependencies: ['db', 'players', 'games', 'scheduler', 'events'] },
);
