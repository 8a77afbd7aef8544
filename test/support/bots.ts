// Racers that behave like real clients through restarts: each plays its game at a steady pace,
// and whenever its socket closes (a stop, a crash, a dropped network) it reconnects at once,
// resyncs from the last ack it saw and plays on, until told to stop.
import type { ServerMessage, ServerMessageOf } from '../../contract/index.js';
import { Mirror, play } from './mirror.js';
import { Client } from './socket-client.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface BotPlayer {
  token: string;
}

export class Bot {
  /** Acks received, over every connection. */
  acks = 0;
  /** When each of the game's actions was acknowledged to this bot (Date.now(), by index), for actions it played. */
  readonly ackedAt: number[] = [];
  /** Connections opened (the first included). */
  connections = 0;
  private stopped = false;
  private client: Client | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly wsBase: string,
    private readonly player: BotPlayer,
    readonly mirror: Mirror,
    private readonly paceMs: number,
  ) {}

  start(): void {
    this.running ??= this.loop();
  }

  /** Drops the socket without a close handshake, as a lost network does; the bot reconnects. */
  drop(): void {
    this.client?.socket.terminate();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.client?.socket.terminate();
    await this.running;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      try {
        const client = await Client.connect(this.wsBase, this.player);
        this.client = client;
        this.connections++;
        if (this.stopped) client.socket.terminate();
        await this.catchUp(client);
        for (let action = this.mirror.choose(); action && !this.stopped; action = this.mirror.choose()) {
          const { index } = await play(client, this.mirror, action, 10_000);
          this.ackedAt[index] = Date.now();
          this.acks++;
          await sleep(this.paceMs * (0.5 + Math.random()));
        }
        // Game over: stay connected, as a player reading the standings does.
        if (!this.stopped) await client.whenClosed(3_600_000);
      } catch {
        // Closed or refused (the server stopping or not up yet): try again shortly.
      }
      this.client?.socket.terminate();
      if (!this.stopped) await sleep(100 + Math.random() * 200);
    }
  }

  /** The acks this bot missed while away (its last frames may have been acknowledged as the socket closed). */
  private async catchUp(client: Client): Promise<void> {
    client.send({ type: 'resync', gameId: this.mirror.gameId, lastIndex: this.mirror.index - 1 });
    const answer = await client.nextWhere(
      (message: ServerMessage): message is ServerMessageOf<'resynced'> => message.type === 'resynced' && message.gameId === this.mirror.gameId,
      'resynced',
      10_000,
    );
    for (const ack of answer.acks) if (ack.index === this.mirror.index) this.mirror.apply(ack);
  }
}

async function post(base: string, path: string, token?: string, body?: object): Promise<{ status: number; body: any }> {
  const response = await fetch(base + path, {
    method: 'POST',
    headers: { ...(token && { authorization: `Bearer ${token}` }), ...(body && { 'content-type': 'application/json' }) },
    ...(body && { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: await response.json() };
}

/**
 * `count` new players in started races of two on the server at `base`, one bot each, not yet
 * started. The server must run with RATE_LIMITS=off (every bot shares one address).
 */
export async function raceBots(base: string, count: number, paceMs: number): Promise<Bot[]> {
  const wsBase = base.replace(/^http/, 'ws');
  const races = await Promise.all(
    Array.from({ length: Math.ceil(count / 2) }, async (_, race): Promise<Bot[]> => {
      const players: BotPlayer[] = [];
      for (const seat of [0, 1]) {
        const created = await post(base, '/api/players', undefined, { name: `bot ${race}-${seat}` });
        if (created.status !== 201) throw new Error(`cannot create a player: ${JSON.stringify(created.body)}`);
        players.push({ token: created.body.token });
      }
      const made = await post(base, '/api/races', players[0]!.token, { seats: 2 });
      if (made.status !== 201) throw new Error(`cannot create a race: ${JSON.stringify(made.body)}`);
      const code: string = made.body.race.code;
      await post(base, `/api/races/${code}/join`, players[1]!.token);
      const clients = await Promise.all(players.map((player) => Client.connect(wsBase, player)));
      for (const client of clients) {
        client.send({ type: 'watch', code });
        await client.next('race');
      }
      const started = await post(base, `/api/races/${code}/start`, players[0]!.token);
      if (started.status !== 200) throw new Error(`cannot start a race: ${JSON.stringify(started.body)}`);
      const games = await Promise.all(clients.map((client) => client.next('game', () => true, 15_000)));
      for (const client of clients) client.close();
      return players.map((player, seat) => new Bot(wsBase, player, Mirror.of(games[seat]!), paceMs));
    }),
  );
  return races.flat().slice(0, count);
}
