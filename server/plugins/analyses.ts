import fp from 'fastify-plugin';
import { AnalysisService, type AnalysisRules } from '../analyses.js';
import { FairPlayService } from '../fair-play.js';
import { serve } from '../http.js';

declare module 'fastify' {
  interface FastifyInstance {
    analyses: AnalysisService;
    fairPlay: FairPlayService;
  }
}

/** Game analyses over HTTP, made in a worker thread (analyses.ts), with their fair-play figures (fair-play.ts); the worker is stopped before the database closes. */
export default fp<{ rules: AnalysisRules }>(
  async (app, { rules }) => {
    const analyses = new AnalysisService(app.storage.analyses, app.games, app.replays, app.daily, app.clock, app.log, rules, app.events);
    app.decorate('analyses', analyses);
    // Measures each game as its analysis is stored.
    const fairPlay = new FairPlayService(app.storage.fairPlay, app.clock, app.log, app.events);
    app.decorate('fairPlay', fairPlay);
    analyses.onSolved = (status, seconds) => app.metrics.analysisSolved(status, seconds);
    // The owner of the timers queues what a restart left unanalysed; the days' close comes as an event.
    app.scheduler.onTakeover(() => analyses.resume());
    app.addHook('preClose', async () => analyses.close());

    serve(app, 'analysis', async (request) => {
      const answer = await analyses.answer(request.params.id);
      return { ...answer, fairPlay: answer.status === 'done' ? await fairPlay.ofGame(request.params.id) : null };
    });
    serve(app, 'dailyAnalysis', async (request) => analyses.dayAnswer(request.params.day));
  },
  { name: 'analyses', dependencies: ['db', 'games', 'replays', 'daily', 'scheduler', 'events'] },
);
