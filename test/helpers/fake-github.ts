/**
 * The fake GitHub over HTTP that `autofix demo --app` ships (fakes/github/): one
 * definition for the product and the tests.
 */
export * from '../../fakes/github/index.js';
