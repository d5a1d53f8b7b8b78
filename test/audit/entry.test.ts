/** auditEntry: the account an entry names (issue 12), given or taken from the change's record. */
import { describe, expect, it } from 'vitest';
import { auditEntry, type AuditInput } from '../../src/audit/entry.js';
import type { OperationRecord } from '../../src/store/types.js';

const record = (account: string | null): OperationRecord => ({
  id: 'op_AAAAAAAAAAAAAAAA',
  opId: 'server.reinstall',
  args: {},
  facts: {},
  sealedSecrets: null,
  status: 'succeeded',
  requestedBy: 'U_ALICE',
  teamId: null,
  channelId: 'C_OPS',
  messageTs: null,
  dedupeKey: null,
  createdAt: 0,
  updatedAt: 0,
  expiresAt: 1,
  confirmedBy: 'U_BOB',
  confirmedAt: 10,
  approvedBy: null,
  approvedAt: null,
  finishedAt: 50,
  result: null,
  errorCode: null,
  errorMessage: null,
  account,
});

const input = (over: Partial<AuditInput> = {}): AuditInput => ({
  op: { id: 'server.reinstall', tier: 'destroy' },
  userId: 'U_ALICE',
  channelId: 'C_OPS',
  args: { server: 'srv-1' },
  outcome: 'succeeded',
  ...over,
});

describe('auditEntry account', () => {
  it('is null (the default account) when neither given nor on a record', () => {
    expect(auditEntry(input()).account).toBeNull();
    expect(auditEntry(input({ record: record(null) })).account).toBeNull();
  });

  it('passes a given account through', () => {
    expect(auditEntry(input({ account: 'acme-staging' })).account).toBe('acme-staging');
  });

  it("takes the record's account when none is given; a given one (null included) wins", () => {
    expect(auditEntry(input({ record: record('acme-prod') }))).toMatchObject({ account: 'acme-prod', operationId: 'op_AAAAAAAAAAAAAAAA' });
    expect(auditEntry(input({ record: record('acme-prod'), account: 'acme-staging' })).account).toBe('acme-staging');
    expect(auditEntry(input({ record: record('acme-prod'), account: null })).account).toBeNull();
  });
});
