import fp from 'fastify-plugin';
import { Refusal } from '../errors.js';
import { serve } from '../http.js';
import { raceReplay } from '../race-replay.js';
import { RaceService, type RaceTiming } from '../races.js';
import { currentPlayer } from './players.js';

declare module 'fastify' {
  interface FastifyInstance {
    races: RaceService;
  }
}

/** Races over HTTP: create, join, look, start, leave, kick, cancel, rematch, and the replay once finished. Live play is on the websocket. */
export default fp<RaceTiming>(
  async (app, timing) => {
    const races = new RaceService(app.storage.races, app.storage.players, app.games, app.transport, app.clock, app.log, timing, app.timers);
    app.decorate('races', races);
    // After the games are loaded (the games' takeover runs first): deadlines may have finished races.
    app.timers.onTakeover(() => races.resume());
    app.timers.onNotice((subject) => ('raceId' in subject ? races.rearm(subject.raceId) : undefined));
    app.timers.onRescan(() => races.rescan());
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

    serve(app, 'leaveRace', async (request) => {
      const player = currentPlayer(request);
      const { code } = request.params;
      await races.lifecycle.leave(player, await races.mustFind(code));
      return { race: (await races.view(code))! };
    });

    serve(app, 'kickRacer', async (request) => {
      const player = currentPlayer(request);
      const { code } = request.params;
      await races.lifecycle.kick(player, await races.mustFind(code), request.body.playerId);
      return { race: (await races.view(code))! };
    });

    serve(app, 'cancelRace', async (request) => {
      const player = currentPlayer(request);
      const { code } = request.params;
      await races.lifecycle.cancel(player, await races.mustFind(code));
      return { race: (await races.view(code))! };
    });

    serve(app, 'answerRematch', async (request) => ({
      race: await races.rematch(currentPlayer(request), request.params.code, request.body.answer),
    }));
  },
  { name: 'races', dependencies: ['db', 'players', 'games', 'timers'] },
);
