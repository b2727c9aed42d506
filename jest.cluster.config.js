// The three-broker fault test alone (npm run test:brokers): the integration project's
// settings with a file name the normal run does not match (*.cluster-test.ts).
import base from './jest.config.js';

const integration = base.projects.find((p) => p.displayName === 'integration');

/** @type {import('jest').Config} */
export default {
  ...integration,
  displayName: 'cluster',
  testMatch: ['<rootDir>/test/cluster/**/*.cluster-test.ts'],
  testTimeout: 900000,
};
