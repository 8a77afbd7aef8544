import { problemText, type VerifyOutcome } from '../shared/index.js';

/**
 * The line `lucie verify` prints for an outcome (docs/record-format.md): a failure names its
 * problem's code, for programs, and gives the reason in English, for people.
 */
export function verifyLine(outcome: VerifyOutcome): string {
  if (outcome.ok) return JSON.stringify(outcome);
  const { index, action, problem } = outcome;
  return JSON.stringify({ ok: false, index, ...(action !== undefined && { action }), code: problem.code, reason: problemText(problem) });
}
