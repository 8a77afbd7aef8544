import fp from 'fastify-plugin';
import { createRaceBody, kickBody, raceCode, rematchBody, type RaceAnswer, type RaceReplayAnswer } from '../../contract/index.js';
import { Refusal } from '../errors.js';
import { parseBody } from '../http.js';
import { raceReplay } from '../race-replay.js';
import { RaceService, type RaceTiming } from '../races.js';
import { currentPlayer } from './players.js';

declare module 'fastify' {
  interface FastifyInstance {
    races: RaceService;
  }
}

interface CodeParams {
  code: string;
}

function codeOf(params: CodeParams): string {
  const code = raceCode.safeParse(params.code);
  if (!code.success) throw new Refusal('invalid-code', `"${params.code}" is not a race code (6 letters or digits)`, { field: 'code' });
  return code.data;
}

/** Races over HTTP: create, join, look, start, leave, kick, cancel, rematch, and the replay once finished. Live play is on the websocket. */
export default fp<RaceTiming>(
  async (app, timing) => {
    const races = new RaceService(app.db, app.games, app.hub, app.clock, app.log, timing);
    app.decorate('races', races);
    // After the games are loaded (games' onReady runs first): deadlines may have finished races.
    app.addHook('onReady', async () => races.resume());
    app.addHook('preClose', async () => races.close());

    app.post('/api/races', async (request, reply): Promise<RaceAnswer> => {
      const player = currentPlayer(request);
      const options = parseBody(createRaceBody, request.body);
      reply.code(201);
      return { race: races.create(player, options) };
    });

    app.get<{ Params: CodeParams }>('/api/races/:code', async (request): Promise<RaceAnswer> => {
      const race = races.view(codeOf(request.params));
      if (!race) throw new Refusal('unknown-race', `there is no race ${request.params.code}`);
      return { race };
    });

    app.get<{ Params: CodeParams }>('/api/races/:code/replay', async (request): Promise<RaceReplayAnswer> =>
      raceReplay(app.db, races, codeOf(request.params)),
    );

    app.post<{ Params: CodeParams }>('/api/races/:code/join', async (request): Promise<RaceAnswer> => {
      const player = currentPlayer(request);
      return { race: races.join(player, codeOf(request.params)) };
    });

    app.post<{ Params: CodeParams }>('/api/races/:code/start', async (request): Promise<RaceAnswer> => {
      const player = currentPlayer(request);
      return { race: races.start(player, codeOf(request.params)) };
    });

    app.post<{ Params: CodeParams }>('/api/races/:code/leave', async (request): Promise<RaceAnswer> => {
      const player = currentPlayer(request);
      const code = codeOf(request.params);
      races.lifecycle.leave(player, races.mustFind(code));
      return { race: races.view(code)! };
    });

    app.post<{ Params: CodeParams }>('/api/races/:code/kick', async (request): Promise<RaceAnswer> => {
      const player = currentPlayer(request);
      const code = codeOf(request.params);
      const { playerId } = parseBody(kickBody, request.body);
      races.lifecycle.kick(player, races.mustFind(code), playerId);
      return { race: races.view(code)! };
    });

    app.post<{ Params: CodeParams }>('/api/races/:code/cancel', async (request): Promise<RaceAnswer> => {
      const player = currentPlayer(request);
      const code = codeOf(request.params);
      races.lifecycle.cancel(player, races.mustFind(code));
      return { race: races.view(code)! };
    });

    app.post<{ Params: CodeParams }>('/api/races/:code/rematch', async (request): Promise<RaceAnswer> => {
      const player = currentPlayer(request);
      const { answer } = parseBody(rematchBody, request.body);
      return { race: races.rematch(player, codeOf(request.params), answer) };
    });
  },
  { name: 'races', dependencies: ['db', 'players', 'games'] },
);
