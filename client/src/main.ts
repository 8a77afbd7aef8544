import { mount } from 'svelte';
import App from './App.svelte';
import OfflineNotice from './lib/OfflineNotice.svelte';
import { registerServiceWorker } from './lib/service-worker.svelte.js';
import './app.css';

const app = document.getElementById('app')!;
mount(OfflineNotice, { target: document.body, anchor: app });
mount(App, { target: app });
registerServiceWorker();
