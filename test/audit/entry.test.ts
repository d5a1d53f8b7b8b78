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

describe('auditEntry args', () => {
  const when = { schema: {} as never, kind: 'rest' as const, placeholder: 'when', description: '', audited: (w: { typed: string }) => w.typed };

  it('an argument whose spec declares how it is audited is shown so (what was typed), the others as given', () => {
    const e = auditEntry(input({ op: { id: 'maintenance.server', tier: 'change', args: { when, server: { ...when, audited: undefined } } }, args: { server: '101', when: { for: 5_400_000, typed: '90m' } } }));
    expect(e.args).toEqual({ server: '101', when: '90m' });
  });

  it('a secret argument stays masked even if its spec declares how it is audited', () => {
    const op = { id: 'server.reinstall', tier: 'destroy' as const, args: { password: { ...when, audited: () => 'leaked' } }, change: { secretArgs: ['password'] } as never };
    expect(auditEntry(input({ op, args: { password: 'Hunter2-secret' } })).args).toEqual({ password: '••••••' });
  });
});
