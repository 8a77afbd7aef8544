import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

/** Extends the lease only while this instance still holds it (it may have expired and moved on). */
const RENEW = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 0`;
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

export interface LeaseOptions {
  /** The Redis key; one lease per key. */
  key: string;
  /** How long the lease lasts without renewal: how soon another instance takes over after a crash. */
  ttlMs: number;
  /** Told when this instance becomes the owner (true) or stops being it (false). */
  onChange(owner: boolean): void;
}

/**
 * One owner at a time among instances for a job (the race timers): a Redis key set with NX and
 * an expiry, renewed at a third of its lifetime by its owner. When the owner dies its lease
 * expires and another instance's next attempt takes it; an owner that fails to renew in time
 * gives up ownership itself before the key can expire under it.
 */
export class Lease {
  readonly id = randomUUID();
  private owner = false;
  private timer: NodeJS.Timeout | undefined;
  /** Ownership ends here when no renewal succeeded by the end of the lifetime of the last one (a Redis that stopped answering). */
  private expiry: NodeJS.Timeout | undefined;
  private ticking = false;
  private stopped = false;

  constructor(
    private readonly redis: Redis,
    private readonly options: LeaseOptions,
  ) {}

  get isOwner(): boolean {
    return this.owner;
  }

  start(): void {
    void this.tick();
  }

  /** Tries to take the lease now rather than at the next attempt (its owner just released it). */
  tryNow(): void {
    if (this.owner || this.stopped || this.ticking) return;
    clearTimeout(this.timer);
    void this.tick();
  }

  /** Releases the lease (if held) so another instance takes over at once: the graceful handover. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    clearTimeout(this.expiry);
    if (this.owner) {
      this.owner = false;
      this.options.onChange(false);
      await this.redis.eval(RELEASE, 1, this.options.key, this.id).catch(() => undefined);
    }
  }

  private async tick(): Promise<void> {
    const { key, ttlMs } = this.options;
    const deadline = Date.now() + ttlMs;
    this.ticking = true;
    try {
      const held = this.owner
        ? (await this.redis.eval(RENEW, 1, key, this.id, String(ttlMs))) === 1
        : (await this.redis.set(key, this.id, 'PX', ttlMs, 'NX')) === 'OK';
      // A renewal that came back too late may no longer be ours to trust.
      const owner = held && Date.now() < deadline;
      if (owner) {
        clearTimeout(this.expiry);
        this.expiry = setTimeout(() => this.setOwner(false), deadline - Date.now());
      }
      this.setOwner(owner);
    } catch {
      this.setOwner(false);
    }
    this.ticking = false;
    if (!this.stopped) this.timer = setTimeout(() => void this.tick(), ttlMs / 3);
  }

  private setOwner(owner: boolean): void {
    if (!owner) clearTimeout(this.expiry);
    if (owner === this.owner || this.stopped) return;
    this.owner = owner;
    this.options.onChange(owner);
  }
}
