import type { VariantId } from '../shared/index.js';
import type { Pending } from './ports.js';

/**
 * The seam between the crowd features and whoever keeps ratings: the pool pairs by it, the lobby
 * shows it and picks its featured race by it. A number is the displayed rating; null means the
 * player has none in that variant yet (the pool then pairs them with anyone).
 */
export interface PlayerRatings {
  ratingOf(playerId: number, variant: VariantId): Pending<number | null>;
}
