// The tables on SQLite, the default database: described in tables.ts, typed by SQLite's own
// builders. `npm run db:generate` makes migrations/ from this file.
import { defineTables, sqliteKit } from './tables.js';

export const { players, devices, deviceLinks, passkeys, passkeyChallenges, races, raceEntries, poolEntries, series, games, dailyTallies, secrets, gameDeals, gameActions, currentGameRow, gameAnalyses, ratings, ratedRaces, ratingChanges, reports, operatorActions, gameFairPlay } = defineTables(sqliteKit);
