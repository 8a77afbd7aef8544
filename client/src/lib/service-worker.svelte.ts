/**
 * The page's side of the service worker (client/sw/sw.ts): registers it once the page has
 * loaded (so it never competes with the first load), follows whether the browser is online, and
 * notices when a new version has taken over while this page runs an older one. Built for
 * production only: the dev server has no sw.js.
 */
export const serviceWorker = $state({ online: navigator.onLine, updateReady: false });

/** The entry script this page was loaded with, which names its version (`/assets/index-COZ6KvGN.js`). */
function ownEntry(): string | null {
  const script = document.querySelector<HTMLScriptElement>('script[type="module"][src]');
  return script ? new URL(script.src).pathname : null;
}

export function registerServiceWorker(): void {
  addEventListener('online', () => (serviceWorker.online = true));
  addEventListener('offline', () => (serviceWorker.online = false));
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  // A newly activated version says which entry it serves; a page loaded with another one is stale.
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent<{ type?: string; entry?: string }>) => {
    if (event.data?.type === 'lucie-version' && event.data.entry !== ownEntry()) serviceWorker.updateReady = true;
  });
  const register = (): void => {
    navigator.serviceWorker.register('/sw.js').catch((error: unknown) => console.warn('service worker not registered:', error));
  };
  if (document.readyState === 'complete') register();
  else addEventListener('load', register, { once: true });
}
