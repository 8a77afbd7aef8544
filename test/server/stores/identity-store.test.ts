// IdentityStore's contract, on SQLite and on PostgreSQL: devices, one-time links, passkeys and
// their challenges.
import { describe, expect, it } from 'vitest';
import { addPlayer, DATABASES, storageFor } from './databases.js';

describe.each(DATABASES)('IdentityStore on %s', (_name, open) => {
  const storage = storageFor(open);

  it('lists signed-in devices most recently seen first, and signs one out for its own player only, once', async () => {
    const { players, identities } = storage();
    const { player: ana, deviceId: phone } = await players.create('Ana', { tokenHash: 'ana-phone', name: 'Safari, iOS' }, 1_000);
    const laptop = await identities.addDevice(ana.id, { tokenHash: 'ana-laptop', name: 'Firefox, Linux' }, 2_000);
    const bo = await addPlayer(storage(), 'Bo');
    expect(await identities.devices(ana.id)).toEqual([
      { id: laptop, name: 'Firefox, Linux', createdAt: 2_000, lastSeenAt: 2_000 },
      { id: phone, name: 'Safari, iOS', createdAt: 1_000, lastSeenAt: 1_000 },
    ]);

    await identities.seen(phone, 3_000);
    expect((await identities.devices(ana.id)).map((device) => [device.id, device.lastSeenAt])).toEqual([
      [phone, 3_000],
      [laptop, 2_000],
    ]);
    expect(await identities.byTokenHash('ana-phone')).toEqual({ player: ana, deviceId: phone, lastSeenAt: 3_000, bannedAt: null });

    expect(await identities.signOut(bo.id, laptop, 4_000)).toBe(false);
    expect(await identities.signOut(ana.id, laptop, 4_000)).toBe(true);
    expect(await identities.signOut(ana.id, laptop, 5_000)).toBe(false);
    expect(await identities.byTokenHash('ana-laptop')).toBeUndefined();
    expect(await identities.devices(ana.id)).toEqual([{ id: phone, name: 'Safari, iOS', createdAt: 1_000, lastSeenAt: 3_000 }]);
  });

  it('hands a link to one device before it expires, then calls it used; unknown and expired links are refused', async () => {
    const { identities } = storage();
    const cy = await addPlayer(storage(), 'Cy');
    await identities.createLink('link-cy', cy.id, 10_000);
    expect(await identities.linkOwner('link-cy', 9_999)).toEqual({ player: cy, expiresAt: 10_000 });
    expect(await identities.linkOwner('link-nobody', 9_999)).toBe('unknown');
    expect(await identities.linkOwner('link-cy', 10_000)).toBe('expired');
    expect(await identities.claimLink('link-cy', { tokenHash: 'cy-late', name: 'Late' }, 10_000)).toBe('expired');
    expect(await identities.claimLink('link-nobody', { tokenHash: 'cy-none', name: 'None' }, 5_000)).toBe('unknown');

    const claimed = await identities.claimLink('link-cy', { tokenHash: 'cy-tablet', name: 'Chrome, Android' }, 5_000);
    expect(claimed).toEqual({ player: cy, deviceId: expect.any(Number) });
    const { deviceId } = claimed as { deviceId: number };
    expect(await identities.byTokenHash('cy-tablet')).toEqual({ player: cy, deviceId, lastSeenAt: 5_000, bannedAt: null });
    expect(await identities.claimLink('link-cy', { tokenHash: 'cy-again', name: 'Again' }, 6_000)).toBe('used');
    expect(await identities.linkOwner('link-cy', 6_000)).toBe('used');
    // The refused claims stored no device.
    for (const token of ['cy-late', 'cy-none', 'cy-again']) expect(await identities.byTokenHash(token)).toBeUndefined();
  });

  it('gives a link claimed by two devices at once to exactly one of them', async () => {
    const { identities } = storage();
    const di = await addPlayer(storage(), 'Di');
    await identities.createLink('link-di', di.id, 10_000);
    const claims = await Promise.all([
      identities.claimLink('link-di', { tokenHash: 'di-one', name: 'One' }, 1_000),
      identities.claimLink('link-di', { tokenHash: 'di-two', name: 'Two' }, 1_000),
    ]);
    expect(claims.filter((claim) => claim === 'used')).toHaveLength(1);
    expect(claims.filter((claim) => typeof claim === 'object')).toEqual([{ player: di, deviceId: expect.any(Number) }]);
    // Besides the device Di was created on, one.
    expect((await identities.devices(di.id)).filter((device) => device.name === 'One' || device.name === 'Two')).toHaveLength(1);
  });

  it('keeps passkeys newest first, with counters past 32 bits; a sign-in moves the counter and adds a device; only the owner removes one', async () => {
    const { identities } = storage();
    const ed = await addPlayer(storage(), 'Ed');
    const fay = await addPlayer(storage(), 'Fay');
    const key = { playerId: ed.id, credentialId: 'cred-ed-1', publicKey: 'pk-1', counter: 3_000_000_000, transports: 'internal,hybrid', name: 'Pixel', createdAt: 100 };
    const first = await identities.addPasskey(key);
    const second = await identities.addPasskey({ ...key, credentialId: 'cred-ed-2', publicKey: 'pk-2', counter: 0, transports: 'usb', name: 'YubiKey', createdAt: 200 });
    expect(await identities.passkeys(ed.id)).toEqual([
      { ...key, id: second, credentialId: 'cred-ed-2', publicKey: 'pk-2', counter: 0, transports: 'usb', name: 'YubiKey', createdAt: 200, lastUsedAt: null },
      { ...key, id: first, lastUsedAt: null },
    ]);
    expect(await identities.passkeys(fay.id)).toEqual([]);
    expect(await identities.passkeyByCredential('cred-unknown')).toBeUndefined();

    const signedIn = await identities.passkeyUsed(first, 3_000_000_001, { tokenHash: 'ed-key', name: 'Chrome, macOS' }, 300);
    expect(signedIn).toEqual({ player: ed, deviceId: expect.any(Number) });
    expect(await identities.passkeyByCredential('cred-ed-1')).toEqual({ ...key, id: first, counter: 3_000_000_001, lastUsedAt: 300 });
    expect(await identities.byTokenHash('ed-key')).toEqual({ player: ed, deviceId: signedIn.deviceId, lastSeenAt: 300, bannedAt: null });

    expect(await identities.removePasskey(fay.id, first)).toBe(false);
    expect(await identities.removePasskey(ed.id, first)).toBe(true);
    expect(await identities.removePasskey(ed.id, first)).toBe(false);
    expect((await identities.passkeys(ed.id)).map((passkey) => passkey.id)).toEqual([second]);
  });

  it('takes a challenge once, for its own purpose, before it expires', async () => {
    const { identities } = storage();
    const gus = await addPlayer(storage(), 'Gus');
    await identities.storeChallenge('challenge-register', 'register', gus.id, 1_000);
    await identities.storeChallenge('challenge-sign-in', 'sign-in', null, 1_000);
    await identities.storeChallenge('challenge-late', 'sign-in', null, 1_000);

    expect(await identities.takeChallenge('challenge-register', 'sign-in', 500)).toBeUndefined();
    expect(await identities.takeChallenge('challenge-register', 'register', 500)).toEqual({ playerId: gus.id });
    expect(await identities.takeChallenge('challenge-register', 'register', 500)).toBeUndefined();
    expect(await identities.takeChallenge('challenge-sign-in', 'sign-in', 999)).toEqual({ playerId: null });
    expect(await identities.takeChallenge('challenge-late', 'sign-in', 1_000)).toBeUndefined();
    expect(await identities.takeChallenge('challenge-unknown', 'sign-in', 0)).toBeUndefined();
  });
});
