// The client's one door to the contract: the zod-free modules as values, the zod schemas' types
// only, so no byte of zod reaches the bundle.
export * from '../../../contract/vocabulary.js';
export * from '../../../contract/day.js';
export * from '../../../contract/errors.js';
export * from '../../../contract/routes.js';
export * from '../../../contract/tag.js';
export * from '../../../contract/languages.js';
export type * from '../../../contract/views.js';
export type * from '../../../contract/socket.js';
export type * from '../../../contract/http.js';
export type * from '../../../contract/identity.js';
export type * from '../../../contract/moderation.js';
export type * from '../../../contract/lobby.js';
