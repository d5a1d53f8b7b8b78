/**
 * The two-account policy the access tests share: prod and staging, staging the default, unlisted
 * channels refused. Each test adds its own channels.
 */
import type { PolicyFile } from '../../src/access/policy-file.js';

export const NO_ROLES = { admins: [], operators: [], viewers: [] };

export function twoAccountPolicy(urls: Record<string, string>, channels: NonNullable<PolicyFile['channels']>): PolicyFile {
  return {
    version: 1,
    default_account: 'staging',
    accounts: {
      prod: { base_url: urls.prod!, token_env: 'CLOUD_PROD_TOKEN' },
      staging: { base_url: urls.staging!, token_env: 'CLOUD_STAGING_TOKEN' },
    },
    default_channel: 'deny',
    channels,
  };
}
