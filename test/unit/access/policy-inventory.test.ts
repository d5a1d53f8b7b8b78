/**
 * An account's inventory in the policy file (issue 20): entries are checked as typed ids and
 * names are, every problem named in the one PolicyFileError, and the effective policy carries
 * them per account (a reload's diff names what changed).
 */
import { describe, expect, it } from 'vitest';
import { describePolicyChanges } from '../../../src/access/policy-diff.js';
import { parsePolicyText, PolicyFileError } from '../../../src/access/policy-file.js';
import { buildPolicy } from '../../../src/access/policy.js';
import { SHELL_ACCESS } from '../../../src/shell/start-shell.js';

const options = { hasEnv: (name: string) => name === 'CLOUD_PROD_TOKEN' };
const file = (inventory: string) => `
version: 1
default_channel: deny
channels: {}
accounts:
  prod:
    base_url: https://api.example.com/v2
    token_env: CLOUD_PROD_TOKEN
    inventory:
${inventory}
`;

function refusal(text: string): string[] {
  try {
    parsePolicyText(text, 'policy.yaml', options);
  } catch (e) {
    expect(e).toBeInstanceOf(PolicyFileError);
    return (e as Error).message.split('\n').slice(1).map((l) => l.trim());
  }
  throw new Error('the file was accepted');
}

describe('inventory', () => {
  it('parses servers, groups and workers, each with its id as the API addresses it', () => {
    const parsed = parsePolicyText(
      file(`      - { kind: server, id: 101, name: web-1, home: C0PROD001 }
      - { kind: server, id: 5f0c3a1e, name: web-1.example.net }
      - { kind: security group, id: "7", name: web-default }
      - { kind: sg, id: 8, name: db-internal }
      - { kind: worker, id: 0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b66, name: docs site }`),
      'policy.yaml',
      options,
    );
    const policy = buildPolicy({ access: SHELL_ACCESS, cloud: undefined, file: parsed, path: 'policy.yaml' });
    expect(policy.accounts.prod!.inventory).toEqual([
      { kind: 'server', id: '101', name: 'web-1', home: 'C0PROD001' },
      { kind: 'server', id: '5f0c3a1e', name: 'web-1.example.net', home: undefined },
      { kind: 'sg', id: '7', name: 'web-default', home: undefined },
      { kind: 'sg', id: '8', name: 'db-internal', home: undefined },
      { kind: 'worker', id: '0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b66', name: 'docs site', home: undefined },
    ]);
  });

  it('names every bad entry in one error: kind, id per kind, name, home, unknown keys, a missing id', () => {
    const lines = refusal(
      file(`      - { kind: disk, id: 1, name: a }
      - { kind: server, id: "../1", name: web-1 }
      - { kind: sg, id: 0, name: web-default }
      - { kind: worker, id: 101, name: docs }
      - { kind: server, id: 102, name: "12" }
      - { kind: server, id: 103, name: db, home: prod-ops }
      - { kind: server, id: 104, name: db-2, ip: 1.2.3.4 }
      - { kind: server, name: nameless }`),
    );
    expect(lines).toEqual([
      'accounts.prod.inventory.0.kind must be server, security group (or sg) or worker',
      'accounts.prod.inventory.1.id “../1” is not a server id: use a numeric id, an 8-character short uuid or a 36-character uuid',
      'accounts.prod.inventory.2.id “0” is not a security group id: use a positive whole number',
      'accounts.prod.inventory.3.id “101” is not a uuid: use a 36-character uuid such as 123e4567-e89b-12d3-a456-426614174000',
      'accounts.prod.inventory.4.name must be a name: letters, digits, spaces, dots, dashes and underscores, with at least one letter (at most 100)',
      'accounts.prod.inventory.5.home must be a channel id like C0123ABCD',
      '- accounts.prod.inventory.6 Unrecognized key: "ip"',
      'accounts.prod.inventory.7.id is required: the id the Cloud API addresses it by',
    ].map((l) => (l.startsWith('- ') ? l : `- ${l}`)));
  });

  it('refuses one name for two resources of a kind (it would be ambiguous); two names for one is fine', () => {
    const lines = refusal(
      file(`      - { kind: server, id: 101, name: web-1 }
      - { kind: server, id: 101, name: frontend }
      - { kind: sg, id: 7, name: web-1 }
      - { kind: server, id: 105, name: WEB-1 }`),
    );
    expect(lines).toEqual(['- accounts.prod.inventory.3.name WEB-1 already names server 101; one name, one server']);
  });

  it('a reload that changes an inventory says what was added and removed', () => {
    const policy = (inv: string) =>
      buildPolicy({ access: SHELL_ACCESS, cloud: undefined, file: parsePolicyText(file(inv), 'policy.yaml', options), path: 'policy.yaml' });
    const before = policy('      - { kind: server, id: 101, name: web-1 }');
    const after = policy('      - { kind: server, id: 101, name: frontend }\n      - { kind: sg, id: 7, name: web-default }');
    expect(describePolicyChanges(before, after)).toEqual(['accounts.prod.inventory: + server 101 frontend; + sg 7 web-default; − server 101 web-1']);
    expect(describePolicyChanges(after, after)).toEqual([]);
  });
});
