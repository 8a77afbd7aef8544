/**
 * The one seam between the stores and the two databases. A store builds its queries once, with
 * drizzle, on `sql.db` and the tables in `sql.t`, and runs them through `one`/`all`/`run`: on
 * SQLite they answer in the same turn (better-sqlite3 is synchronous), on PostgreSQL later.
 *
 * The queries are typed by the SQLite tables: the PostgreSQL tables are the same description
 * (tables.ts) built with PostgreSQL's columns, which read the same rows, and the query builders
 * of both dialects take the same calls. A store never calls a builder's own `.get()`/`.all()`/`.run()`
 * (SQLite's) or awaits it (PostgreSQL's): the adapter does.
 */
import type { BetterSQLite3Database } from 'drizzle-orm/better-sqlite3';
import { after, type Pending } from '../ports.js';
import type { defineTables } from './tables.js';

/** Every table: each dialect's schema module must export them all, or its adapter does not compile. */
export type Tables = ReturnType<typeof defineTables>;

/** A query that reads rows (a select, or a write with `returning`), and a write without `returning`. */
export type Rows<T> = { all(): T[] };
export type Statement = { run(): unknown };
/** A query with placeholders, prepared once. */
export interface Preparable<T> {
  prepare(): { all(values?: Record<string, unknown>): T[]; get(values?: Record<string, unknown>): T | undefined };
}
export interface Prepared<T> {
  all(values: Record<string, unknown>): Pending<T[]>;
  one(values: Record<string, unknown>): Pending<T | undefined>;
}

/** The steps of a store call that takes several queries: each `yield* wait(...)` hands a Pending value to `flow`. */
export type Steps<T> = Generator<unknown, T, unknown>;

export interface Sql {
  readonly kind: 'sqlite' | 'postgres';
  readonly db: BetterSQLite3Database<Tables>;
  readonly t: Tables;
  one<T>(query: Rows<T>): Pending<T | undefined>;
  all<T>(query: Rows<T>): Pending<T[]>;
  /** How many rows the write changed. */
  run(query: Statement): Pending<number>;
  prepare<T>(query: Preparable<T>): Prepared<T>;
  /** Runs `steps` in one transaction, their queries built on the transaction's `Sql`. */
  transaction<T>(steps: (sql: Sql) => Steps<T>): Pending<T>;
  /**
   * A select that locks the rows it reads until the transaction ends. PostgreSQL only: its
   * transactions run side by side, while SQLite's writer holds the whole database anyway.
   */
  lockingRows<Q>(query: Q): Q;
  /** The storage's reason when `error` is a failure to store that a retry may cure (remembered for readiness). */
  failure(error: unknown): string | undefined;
  /** Whether `error` is a write refused by a unique key. */
  isDuplicate(error: unknown): boolean;
}

/** A step: `const row = yield* wait(sql.one(query))`. */
export function* wait<T>(value: Pending<T>): Generator<Pending<T>, T, T> {
  return yield value;
}

/** The row a query always returns (an insert's `returning`, an aggregate). */
export function theRow<T>(row: Pending<T | undefined>): Pending<T> {
  return after(row, (value) => {
    if (value === undefined) throw new Error('the query returned no row');
    return value;
  });
}

/** A write whose count nobody needs. */
export function done(value: Pending<unknown>): Pending<void> {
  return after(value, () => undefined);
}

/** Two values, now if both are (the synchronous path stays synchronous). */
export function both<A, B>(a: Pending<A>, b: Pending<B>): Pending<[A, B]> {
  return a instanceof Promise || b instanceof Promise ? Promise.all([a, b]) : [a, b];
}

/** Runs `steps`, synchronously for as long as each step answers now, then asynchronously. */
export function flow<T>(steps: Steps<T>): Pending<T> {
  let next = steps.next();
  while (!next.done) {
    if (next.value instanceof Promise) return next.value.then((value) => continueFlow(steps, value));
    next = steps.next(next.value);
  }
  return next.value;
}

async function continueFlow<T>(steps: Steps<T>, value: unknown): Promise<T> {
  let next = steps.next(value);
  while (!next.done) next = steps.next(await next.value);
  return next.value;
}
