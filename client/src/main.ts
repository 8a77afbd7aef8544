import { mount } from 'svelte';
import App from './App.svelte';
import { setLocale } from './lib/i18n.svelte.js';
import OfflineNotice from './lib/OfflineNotice.svelte';
import { registerServiceWorker } from './lib/service-worker.svelte.js';
import { settings } from './lib/settings.svelte.js';
import './app.css';

// The page is written in the player's language from its first paint: its catalogue comes first.
await setLocale(settings.locale);
const app = document.getElementById('app')!;
mount(OfflineNotice, { target: document.body, anchor: app });
mount(App, { target: app });
registerServiceWorker();
