// The contract between Lucie's server and its clients. The zod-free modules (vocabulary, day,
// errors, messages, routes) cost nothing at run time; the browser imports the zod ones only with `import type`.
export * from './vocabulary.js';
export * from './day.js';
export * from './errors.js';
export * from './messages.js';
export * from './routes.js';
export * from './views.js';
export * from './socket.js';
export * from './http.js';
export * from './identity.js';
export * from './moderation.js';
export * from './pages.js';
export * from './tag.js';
export * from './lobby.js';
export * from './languages.js';
