export * from './budget.js';
export * from './dealer.js';
export * from './deal.js';
export * from './clairvoyant.js';
export * from './par.js';
export { cardsAbove, packHeights, unpackHeights, type Heights } from './state.js';
export * from './analysis.js';
