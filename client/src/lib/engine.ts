// The client's one door to the shared engine: importing it from a TS file lets Vite and
// svelte-check resolve the engine's `.js` specifiers to its `.ts` sources.
export * from '../../../shared/index.js';
