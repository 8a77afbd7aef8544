import { mount } from 'svelte';
import App from './App.svelte';
import { setLocale } from './lib/i18n.svelte.js';
import { settings } from './lib/settings.svelte.js';
import './app.css';

// The page is written in the player's language from its first paint: its catalogue comes first.
await setLocale(settings.locale);
mount(App, { target: document.getElementById('app')! });
