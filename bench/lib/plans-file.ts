import { fileURLToPath } from 'node:url';

/**
 * The shipped plans with a Trial without limits (the API tests' fixture): the benchmarks and
 * experiments import hundreds of thousands of rows and seed teams far past the shipped Trial's limits.
 */
export const UNLIMITED_TRIAL_PLANS = fileURLToPath(
  new URL('../../apps/server/test/fixtures/plans/unlimited-trial.json', import.meta.url),
);
