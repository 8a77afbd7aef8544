// What a page does with a game's record once it has come (parse it, replay it, share it, save
// it): the engine and the replay's code are this chunk's, not the page's, so the page's first
// paint (a game's result, a race's standings) does not wait for them. A page imports it at once,
// while its data is fetched (`later(() => import('../lib/game-replay.js'))`, lib/lazy.ts), and reads it
// when the record comes.
import { parseRecord, type RecordJson } from './engine.js';
import { t } from './i18n.svelte.js';
import { problemWords } from './moves.js';
import { buildReplay, type Replay } from './replay.js';

export { lineRecord } from './analysis.js';
export { problemWords };
export { buildReplay, download, MAX_RECORD_BYTES, metaClaims, openRecord, recordFileName, recordText } from './replay.js';
export { sharedResultOf } from './share.js';

/** A stored record replayed, or why it cannot be (in the player's words). */
export function replayOf(json: RecordJson): Replay | string {
  const record = parseRecord(json);
  return record.ok ? buildReplay(record.value) : t('game.bad-record', { detail: problemWords(record.error) });
}
