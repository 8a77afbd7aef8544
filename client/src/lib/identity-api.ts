/**
 * The identity's own routes (rename, devices, device links, passkeys), apart from api.ts so that
 * only the pages that use them load them: every page's first load carries api.ts.
 */
import { callRoute as call } from './api.js';
import { identity, remember } from './identity.svelte.js';

/** A new name for this identity (its games, series and record stay its own). */
export async function rename(name: string): Promise<void> {
  const answer = await call('rename', { body: { name } });
  remember(answer.player, identity.token!);
}
export const myDevices = () => call('myDevices');
export const signOutDevice = (id: number) => call('signOutDevice', { params: { id } });
/** A one-time link (and code, and QR code) that brings this identity to another device for 10 minutes. */
export const createLink = () => call('createLink');
/** Whose identity a code hands over, before claiming it. */
export const linkOwner = (code: string) => call('linkOwner', { params: { code } });
/** Claims a device link: this browser gets its own token for that identity. */
export async function claimLink(code: string): Promise<void> {
  const answer = await call('claimLink', { params: { code } });
  remember(answer.player, answer.token);
}
export const myPasskeys = () => call('myPasskeys');
export const removePasskey = (id: number) => call('removePasskey', { params: { id } });
