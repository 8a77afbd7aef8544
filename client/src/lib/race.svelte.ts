import type { RaceEvent, RaceView, ServerMessage } from './contract.js';
import { GameSession, type GameMessage } from './game-session.svelte.js';

const EVENTS_KEPT = 3;

/**
 * One race as this browser sees it over the websocket: the race view, everyone's progress, and
 * the player's own game (a GameSession). `watch` subscribes; its answer carries the race and,
 * for a racer, the whole game: that is also the resync after a reconnect.
 */
export class RaceSession extends GameSession {
  race = $state.raw<RaceView | null>(null);
  /** What happened to the race's seats since this page opened, newest last (a few are kept). */
  events = $state.raw<readonly RaceEvent[]>([]);

  constructor(readonly code: string) {
    super();
    this.open();
  }

  override close(): void {
    this.send({ type: 'unwatch', code: this.code });
    super.close();
  }

  protected subscribe(): void {
    this.send({ type: 'watch', code: this.code });
  }

  protected owns(message: GameMessage): boolean {
    return message.raceCode === this.code;
  }

  protected reload(): void {
    this.subscribe();
  }

  protected override accepting(): boolean {
    return this.race?.state === 'running';
  }

  protected override receive(message: ServerMessage): void {
    switch (message.type) {
      case 'race':
        if (message.race.code !== this.code) return;
        this.race = message.race;
        this.setClock(message.serverTime);
        break;
      case 'race-event':
        if (message.code === this.code) this.events = [...this.events.slice(-(EVENTS_KEPT - 1)), message.event];
        break;
      case 'progress': {
        const race = this.race;
        if (message.code !== this.code || !race) return;
        // One message per window holds every racer who moved: each replaces that racer's entry.
        const changed = new Map(message.progress.map((entry) => [entry.playerId, entry]));
        const progress = race.progress.map((entry) => changed.get(entry.playerId) ?? entry);
        for (const entry of message.progress) if (!race.progress.some((known) => known.playerId === entry.playerId)) progress.push(entry);
        this.race = { ...race, progress };
        break;
      }
      default:
        super.receive(message);
    }
  }
}
