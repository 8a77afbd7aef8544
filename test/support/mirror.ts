// A client's copy of its game, advanced only by the server's acks (what a real client does), the
// play policies scripted players choose with, and playing through a socket client.
import { makeAction, parseAction, parseLayout, Position, type Action, type Layout, type VariantId } from '../../shared/index.js';
import type { ServerMessage, ServerMessageOf } from '../../contract/index.js';
import type { Client } from './socket-client.js';

/** The value of an engine result, or a throw with its reason. */
export function unwrap<T>(result: { ok: true; value: T } | { ok: false; error: unknown }): T {
  if (!result.ok) throw new Error(String(result.error));
  return result.value;
}

export function layoutOf(fans: readonly string[]): Layout {
  return unwrap(parseLayout(fans));
}

/** A play policy: the next action in a position, undefined when the game is over. */
export type Policy = (position: Position) => Action | undefined;

/** A card home if one can go, else the first fan move, else a redeal. */
export const homeFirst: Policy = (position) => {
  const legal = position.legalActions();
  return legal.find((action) => action.type === 'fan-to-foundation') ?? legal.find((action) => action.type !== 'redeal') ?? legal[0];
};

/** Any move but a redeal, picked by `random` (0-1); a redeal only when nothing else is legal. */
export const randomMove =
  (random: () => number): Policy =>
  (position) => {
    const legal = position.legalActions();
    const moves = legal.filter((action) => action.type !== 'redeal');
    return moves.length > 0 ? moves[Math.floor(random() * moves.length)] : legal[0];
  };

export class Mirror {
  readonly position: Position;
  readonly actions: string[] = [];

  constructor(
    readonly gameId: number,
    readonly variant: VariantId,
    firstLayout: readonly string[],
  ) {
    this.position = unwrap(Position.start(variant, layoutOf(firstLayout)));
  }

  static of(game: Pick<ServerMessageOf<'game'>, 'gameId' | 'variant' | 'deals'>): Mirror {
    return new Mirror(game.gameId, game.variant, game.deals[0]!);
  }

  /** The index of the next action. */
  get index(): number {
    return this.actions.length;
  }

  choose(policy: Policy = homeFirst): Action | undefined {
    return policy(this.position);
  }

  /** The frame that plays `action` as the next index. */
  frame(action: Action): { type: 'action'; gameId: number; index: number; action: string } {
    return { type: 'action', gameId: this.gameId, index: this.index, action: makeAction(action) };
  }

  apply(ack: Omit<ServerMessageOf<'ack'>, 'type'>): void {
    if (ack.index !== this.actions.length) throw new Error(`ack ${ack.index} out of order (have ${this.actions.length})`);
    const action = unwrap(parseAction(ack.action));
    this.position.play(action, ack.layout && layoutOf(ack.layout));
    this.actions.push(ack.action);
  }
}

type Answer = ServerMessageOf<'ack'> | ServerMessageOf<'error'>;

/** How long a scripted player backs off when the server drops its frames for going too fast. */
const RATE_LIMITED_PAUSE_MS = 250;

/**
 * Plays `action` as the next index and waits for its ack, applying it to the mirror. A refusal
 * of that action throws; a frame dropped by the socket's budget is sent again after a pause.
 */
export async function play(client: Client, mirror: Mirror, action: Action, ms?: number): Promise<ServerMessageOf<'ack'>> {
  const index = mirror.index;
  for (;;) {
    client.send(mirror.frame(action));
    const answer = await client.nextWhere(
      (message: ServerMessage): message is Answer =>
        (message.type === 'ack' && message.gameId === mirror.gameId && message.index === index) ||
        (message.type === 'error' && ((message.gameId === mirror.gameId && message.index === index) || message.code === 'rate-limited')),
      `ack ${index} of game ${mirror.gameId}`,
      ms,
    );
    if (answer.type === 'ack') {
      mirror.apply(answer);
      return answer;
    }
    if (answer.code !== 'rate-limited') throw new Error(`action ${index} of game ${mirror.gameId} refused: ${answer.code} ${answer.message}`);
    await new Promise((resolve) => setTimeout(resolve, RATE_LIMITED_PAUSE_MS));
  }
}

/** Plays the policy's choices until the game is over; returns how many actions it made. */
export async function playToEnd(client: Client, mirror: Mirror, policy: Policy = homeFirst): Promise<number> {
  let played = 0;
  for (let action = mirror.choose(policy); action; action = mirror.choose(policy)) {
    await play(client, mirror, action);
    played++;
  }
  return played;
}
