/**
 * The Results page and the results endpoint's page: one chunk, loaded when either opens.
 * They share most of their words, so compressed together they cost less than apart, and an
 * owner who opens one usually opens the other.
 */
export { ResultsEndpoint } from './results-endpoint.tsx';
export { Results } from './results.tsx';
