// Public lists tell two players of one name apart by their tags, and write every other name as it is.
import { describe, expect, it } from 'vitest';
import { playerTag } from '../../contract/index.js';
import { listedName } from '../../client/src/lib/names.js';

describe('listedName', () => {
  it('tags the names two entries share, and only those', () => {
    const shown = listedName([
      { playerId: 1, name: 'Ana' },
      { playerId: 2, name: 'Bo' },
      { playerId: 3, name: 'Ana' },
    ]);
    expect(shown(1, 'Ana')).toBe(`Ana #${playerTag(1)}`);
    expect(shown(3, 'Ana')).toBe(`Ana #${playerTag(3)}`);
    expect(playerTag(1)).not.toBe(playerTag(3));
    expect(shown(2, 'Bo')).toBe('Bo');
  });
});
