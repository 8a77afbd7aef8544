/**
 * The short tag shown after a name in every public list, so two players of one name are told
 * apart: four characters derived from the player's id (stable, and different for ids below
 * 36^4, the multiplier being prime to 36). Plain code (no zod), so the client may import it.
 */
const TAG_SPACE = 36 ** 4;
const TAG_MULTIPLIER = 1_299_709;

export const playerTag = (id: number): string => (((id % TAG_SPACE) * TAG_MULTIPLIER) % TAG_SPACE).toString(36).toUpperCase().padStart(4, '0');
