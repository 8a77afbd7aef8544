import fp from 'fastify-plugin';
import { Refusal } from '../errors.js';
import { serve } from '../http.js';
import { raceReplay } from '../race-replay.js';
import { RaceService, type RaceTiming } from '../races/service.js';
import { currentPlayer } from './players.js';

declare module 'fastify' {
  interface FastifyInstance {
    races: RaceService;
  }
}

/** Races over HTTP: create, join, look, start, leave, kick, cancel, rematch, and the replay once finished. Live play is on the websocket. */
export default fp<RaceTiming>(
  async (app, timing) => {
    const races = new RaceService({
      store: app.storage.races,
      players: app.storage.players,
      ratings: app.storage.ratings,
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

    serve(app, 'createRace', async (request, reply) => {
      const player = currentPlayer(request);
      reply.code(201);
      return { race: await races.create(player, request.body) };
    });

    serve(app, 'race', async (request) => {
      const race = await races.view(request.params.code);
      if (!race) throw new Refusal('unknown-race', `there is no race ${request.params.code}`, { params: { race: request.params.code } });
      return { race };
    });

    serve(app, 'raceReplay', async (request) => raceReplay(app.storage.replays, races, request.params.code));

    serve(app, 'joinRace', async (request) => ({ race: await races.join(currentPlayer(request), request.params.code) }));

    serve(app, 'startRace', async (request) => ({ race: await races.start(currentPlayer(request), request.params.code) }));

    serve(app, 'leaveRace', async (request) => ({ race: await races.leave(currentPlayer(request), request.params.code) }));

    serve(app, 'kickRacer', async (request) => ({
      race: await races.kick(currentPlayer(request), request.params.code, request.body.playerId),
    }));

    serve(app, 'cancelRace', async (request) => ({ race: await races.cancel(currentPlayer(request), request.params.code) }));

    serve(app, 'answerRematch', async (request) => ({
      race: await races.rematch(currentPlayer(request), request.params.code, request.body.answer),
    }));
  },
  { name: 'races', dependencies: ['db', 'players', 'games', 'scheduler', 'events'] },
);
