import type { Problem, VariantId } from './engine.js';

/** A question to the solver worker about a practice game: the seed, and every action so far. */
export interface SolverRequest {
  id: number;
  /** `hint`: par's next action; `solve`: the deal solver's line from here. */
  kind: 'hint' | 'solve';
  variant: VariantId;
  seed: string;
  actions: readonly string[];
}

export interface SolverReply {
  id: number;
  /** Record notation: the hint's one action, or the whole line (empty: nothing to play). */
  actions: string[];
  /** False when the search ran out of its limits: the line is the best found, the hint unknown. */
  exact: boolean;
  /** Par's final count, or the deal's maximum; null when unknown. */
  count?: number | null;
  /** Why the position could not be rebuilt (the page words it in the player's language). */
  problem?: Problem;
  /** The worker itself failed: the browser's own message, empty when it gave none. */
  failed?: string;
}

let worker: Worker | undefined;
let asked = 0;
const waiting = new Map<number, (reply: SolverReply) => void>();

/** Asks the solver worker (started on the first call); one answer per question, in any order. */
export function askSolver(question: Omit<SolverRequest, 'id'>): Promise<SolverReply> {
  if (!worker) {
    worker = new Worker(new URL('./solver-worker.ts', import.meta.url), { type: 'module' });
    worker.onmessage = (event: MessageEvent<SolverReply>) => {
      waiting.get(event.data.id)?.(event.data);
      waiting.delete(event.data.id);
    };
    // A worker that fails answers every question still open, and the next question starts a fresh one.
    worker.onerror = (event) => {
      for (const [id, resolve] of waiting) resolve({ id, actions: [], exact: false, failed: event.message ?? '' });
      waiting.clear();
      worker?.terminate();
      worker = undefined;
    };
  }
  const id = ++asked;
  return new Promise((resolve) => {
    waiting.set(id, resolve);
    worker!.postMessage({ ...question, id, actions: [...question.actions] });
  });
}
