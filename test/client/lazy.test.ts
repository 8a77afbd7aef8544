// A lazy part's chunk is fetched once while it comes or came, and again after it failed to come.
import { describe, expect, it } from 'vitest';
import { untilFailed } from '../../client/src/lib/lazy.js';

describe('a lazy part’s fetch', () => {
  it('is shared while pending and once kept, and made again after a failure', async () => {
    const answers = [() => Promise.reject(new Error('offline')), () => Promise.resolve('chunk')];
    let made = 0;
    const fetchOnce = untilFailed(() => answers[made++]!());
    const first = fetchOnce();
    expect(fetchOnce()).toBe(first);
    await expect(first).rejects.toThrow('offline');
    const second = fetchOnce();
    expect(second).not.toBe(first);
    expect(await second).toBe('chunk');
    expect(fetchOnce()).toBe(second);
    expect(made).toBe(2);
  });
});
