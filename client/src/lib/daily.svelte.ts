import { GameSession, type GameMessage } from './game-session.svelte.js';
import { errorText } from './api.js';
import { t } from './i18n.svelte.js';

/**
 * A game dealt over HTTP and played over the websocket: today's ranked daily attempt, or a deal of
 * a series. The game comes from `POST /api/daily/start` or `POST /api/series/:code/deals/:deal`
 * (the same game on every call while it is played); the socket carries its moves by gameId like
 * a race's, and a reopened socket resyncs from the last acknowledged action.
 */
export class DailySession extends GameSession {
  constructor(
    first: GameMessage,
    /** Gets the whole game again from the server (when this page and the server disagree). */
    private readonly fetchGame: () => Promise<GameMessage>,
  ) {
    super();
    this.load(first);
    this.open();
  }

  protected subscribe(): void {
    this.resync();
  }

  protected owns(message: GameMessage): boolean {
    return message.gameId === this.game?.id;
  }

  protected reload(): void {
    this.fetchGame().then(
      (message) => this.load(message),
      (failure: unknown) => (this.notice = t('session.not-reloaded', { detail: errorText(failure) })),
    );
  }
}
