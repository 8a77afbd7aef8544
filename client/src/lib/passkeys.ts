/**
 * Passkeys in the browser: @simplewebauthn/browser runs the ceremony the server's options ask
 * for. It is loaded only when a player adds or uses a passkey, so no page's first load carries it.
 */
import type { PasskeyCeremonyBody, PasskeyView } from './contract.js';
import { identity, remember } from './identity.svelte.js';
import { callRoute } from './api.js';

const browser = () => import('@simplewebauthn/browser');

/** Whether this browser can make and use passkeys at all. */
export const passkeysSupported = (): boolean => typeof window.PublicKeyCredential === 'function';

/** Makes a passkey on this device's authenticator and adds it to the identity. */
export async function addPasskey(): Promise<PasskeyView> {
  const { startRegistration } = await browser();
  const options = await callRoute('passkeyRegistration');
  const response = await startRegistration({ optionsJSON: options as never });
  return (await callRoute('addPasskey', { body: { response: response as unknown as PasskeyCeremonyBody['response'] } })).passkey;
}

/** Signs this browser in with a passkey it holds: it gets its own token for that identity. */
export async function signInWithPasskey(): Promise<void> {
  const { startAuthentication } = await browser();
  const options = await callRoute('passkeySignInOptions');
  const response = await startAuthentication({ optionsJSON: options as never });
  const answer = await callRoute('passkeySignIn', { body: { response: response as unknown as PasskeyCeremonyBody['response'] } });
  remember(answer.player, answer.token);
}

/** Whether a failure is the player cancelling the browser's passkey prompt (or it timing out). */
export const cancelled = (failure: unknown): boolean => failure instanceof Error && (failure.name === 'NotAllowedError' || failure.name === 'AbortError');
