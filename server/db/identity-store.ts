import { and, desc, eq, gt, isNull, lt } from 'drizzle-orm';
import type { IdentityStore, LinkRefusal } from '../stores.js';
import { after } from '../ports.js';
import { done, theRow, wait, type Sql } from './sql.js';

/** Devices, device links, passkeys and passkey challenges, on either database. */
export function identityStore({ db, t: { devices, deviceLinks, passkeys, passkeyChallenges, players }, one, all, run, transaction }: Sql): IdentityStore {
  const player = { id: players.id, name: players.name };
  const signedIn = (deviceId: number) => and(eq(devices.id, deviceId), isNull(devices.signedOutAt));
  /** Why the link `codeHash` cannot be claimed at `at`, when it cannot. */
  const refusal = (link: { expiresAt: number; usedAt: number | null } | undefined, at: number): LinkRefusal | undefined =>
    link === undefined ? 'unknown' : link.usedAt !== null ? 'used' : link.expiresAt <= at ? 'expired' : undefined;
  return {
    byTokenHash: (tokenHash) =>
      after(
        one(
          db
            .select({ id: players.id, name: players.name, bannedAt: players.bannedAt, deviceId: devices.id, lastSeenAt: devices.lastSeenAt })
            .from(devices)
            .innerJoin(players, eq(players.id, devices.playerId))
            .where(and(eq(devices.tokenHash, tokenHash), isNull(devices.signedOutAt))),
        ),
        (row) => row && { player: { id: row.id, name: row.name }, deviceId: row.deviceId, lastSeenAt: row.lastSeenAt, bannedAt: row.bannedAt },
      ),
    addDevice: (playerId, device, at) =>
      after(theRow(one(db.insert(devices).values({ ...device, playerId, createdAt: at, lastSeenAt: at }).returning({ id: devices.id }))), (row) => row.id),
    devices: (playerId) =>
      all(
        db
          .select({ id: devices.id, name: devices.name, createdAt: devices.createdAt, lastSeenAt: devices.lastSeenAt })
          .from(devices)
          .where(and(eq(devices.playerId, playerId), isNull(devices.signedOutAt)))
          .orderBy(desc(devices.lastSeenAt), desc(devices.id)),
      ),
    seen: (deviceId, at) => done(run(db.update(devices).set({ lastSeenAt: at }).where(eq(devices.id, deviceId)))),
    signOut: (playerId, deviceId, at) =>
      after(run(db.update(devices).set({ signedOutAt: at }).where(and(signedIn(deviceId), eq(devices.playerId, playerId)))), (changed) => changed > 0),
    createLink: (codeHash, playerId, expiresAt) => done(run(db.insert(deviceLinks).values({ codeHash, playerId, expiresAt }))),
    linkOwner: (codeHash, at) =>
      after(
        one(
          db
            .select({ id: players.id, name: players.name, expiresAt: deviceLinks.expiresAt, usedAt: deviceLinks.usedAt })
            .from(deviceLinks)
            .innerJoin(players, eq(players.id, deviceLinks.playerId))
            .where(eq(deviceLinks.codeHash, codeHash)),
        ),
        (link) => refusal(link, at) ?? { player: { id: link!.id, name: link!.name }, expiresAt: link!.expiresAt },
      ),
    claimLink: (codeHash, device, at) =>
      transaction(function* ({ db, one }) {
        // One conditional write decides: of two devices claiming at once, one gets the row back.
        const claimed = yield* wait(
          one(
            db
              .update(deviceLinks)
              .set({ usedAt: at })
              .where(and(eq(deviceLinks.codeHash, codeHash), isNull(deviceLinks.usedAt), gt(deviceLinks.expiresAt, at)))
              .returning({ playerId: deviceLinks.playerId }),
          ),
        );
        if (!claimed) {
          const link = yield* wait(one(db.select({ expiresAt: deviceLinks.expiresAt, usedAt: deviceLinks.usedAt }).from(deviceLinks).where(eq(deviceLinks.codeHash, codeHash))));
          return refusal(link, at) ?? 'used';
        }
        const owner = yield* wait(theRow(one(db.select(player).from(players).where(eq(players.id, claimed.playerId)))));
        const { id } = yield* wait(theRow(one(db.insert(devices).values({ ...device, playerId: owner.id, createdAt: at, lastSeenAt: at }).returning({ id: devices.id }))));
        return { player: owner, deviceId: id };
      }),
    addPasskey: (passkey) => after(theRow(one(db.insert(passkeys).values(passkey).returning({ id: passkeys.id }))), (row) => row.id),
    passkeys: (playerId) => all(db.select().from(passkeys).where(eq(passkeys.playerId, playerId)).orderBy(desc(passkeys.createdAt), desc(passkeys.id))),
    passkeyByCredential: (credentialId) => one(db.select().from(passkeys).where(eq(passkeys.credentialId, credentialId))),
    passkeyUsed: (passkeyId, counter, device, at) =>
      transaction(function* ({ db, one }) {
        const { playerId } = yield* wait(theRow(one(db.update(passkeys).set({ counter, lastUsedAt: at }).where(eq(passkeys.id, passkeyId)).returning({ playerId: passkeys.playerId }))));
        const owner = yield* wait(theRow(one(db.select(player).from(players).where(eq(players.id, playerId)))));
        const { id } = yield* wait(theRow(one(db.insert(devices).values({ ...device, playerId, createdAt: at, lastSeenAt: at }).returning({ id: devices.id }))));
        return { player: owner, deviceId: id };
      }),
    removePasskey: (playerId, passkeyId) =>
      after(run(db.delete(passkeys).where(and(eq(passkeys.id, passkeyId), eq(passkeys.playerId, playerId)))), (changed) => changed > 0),
    storeChallenge: (challenge, purpose, playerId, expiresAt) =>
      transaction(function* ({ db, run }) {
        yield* wait(run(db.delete(passkeyChallenges).where(lt(passkeyChallenges.expiresAt, expiresAt - CHALLENGE_KEPT_MS))));
        yield* wait(run(db.insert(passkeyChallenges).values({ challenge, purpose, playerId, expiresAt })));
      }),
    takeChallenge: (challenge, purpose, at) =>
      after(
        one(
          db
            .delete(passkeyChallenges)
            .where(and(eq(passkeyChallenges.challenge, challenge), eq(passkeyChallenges.purpose, purpose)))
            .returning({ playerId: passkeyChallenges.playerId, expiresAt: passkeyChallenges.expiresAt }),
        ),
        (row) => (row && row.expiresAt > at ? { playerId: row.playerId } : undefined),
      ),
  };
}

/** Challenges expired this long before a new one's end are deleted as it is stored: the table stays small. */
const CHALLENGE_KEPT_MS = 60 * 60 * 1000;
