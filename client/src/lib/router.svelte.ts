/**
 * A history router: real paths (`/r/CODE`, `/practice`) so shared links work; the server
 * answers every unknown path with the app.
 */
export const route = $state({ path: location.pathname, search: location.search });

function sync(): void {
  route.path = location.pathname;
  route.search = location.search;
}

export function navigate(to: string, replace = false): void {
  if (to === location.pathname + location.search) return;
  if (replace) history.replaceState(null, '', to);
  else history.pushState(null, '', to);
  sync();
  if (!replace) window.scrollTo(0, 0);
}

/** Follows same-origin links without reloading the page. */
export function interceptLinks(event: MouseEvent): void {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const anchor = (event.target as Element).closest('a');
  if (!anchor || anchor.target || anchor.hasAttribute('download') || anchor.origin !== location.origin) return;
  event.preventDefault();
  navigate(anchor.pathname + anchor.search);
}

window.addEventListener('popstate', sync);
