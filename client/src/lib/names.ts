import { playerTag } from './contract.js';

/**
 * How a public list writes its players' names: a name another entry of the list shares gets its
 * player's tag (`Ana #RUV1`), so two players of one name are told apart; any other stays as it is.
 */
export function listedName(entries: readonly { readonly playerId: number; readonly name: string }[]): (playerId: number, name: string) => string {
  const counts = new Map<string, number>();
  for (const { name } of entries) counts.set(name, (counts.get(name) ?? 0) + 1);
  return (playerId, name) => ((counts.get(name) ?? 0) > 1 ? `${name} #${playerTag(playerId)}` : name);
}
