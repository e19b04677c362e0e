/**
 * The fake GitHub over HTTP that `autofix demo --app` ships (src/demo/fake-github.ts): one
 * definition for the product and the tests.
 */
export * from '../../src/demo/fake-github.js';
