import { mount } from 'svelte';
import App from './App.svelte';
import { setLocale } from './lib/i18n.svelte.js';
import OfflineNotice from './lib/OfflineNotice.svelte';
import { matchRoute } from './lib/routes.js';
import { registerServiceWorker } from './lib/service-worker.svelte.js';
import { settings } from './lib/settings.svelte.js';
import { viewOf } from './pages.js';
import './app.css';

// The page's own code is fetched while the words are, not after them: one round trip, not two
// (App asks for the same chunk again and gets this fetch; a failure shows there, not here).
const opened = matchRoute(location.pathname);
if (opened) viewOf(opened.name)().catch(() => {});
// The page is written in the player's language from its first paint: the shell's words and the
// page's own come first.
await setLocale(settings.locale, undefined, opened ? [opened.name] : []);
const app = document.getElementById('app')!;
mount(OfflineNotice, { target: document.body, anchor: app });
mount(App, { target: app });
registerServiceWorker();
