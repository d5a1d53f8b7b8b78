/** Issue 14: "did you mean" names only commands that exist and parse; `--help` works everywhere. */
import { describe, expect, it } from 'vitest';
import { catalog } from '../../../src/operations/index.js';
import { parseCommand } from '../../../src/operations/parse-command.js';

const problem = (text: string) => {
  const p = parseCommand(text, catalog);
  if (p.kind !== 'problem') throw new Error(`expected a problem for ${text}, got ${p.kind}`);
  return p.problem;
};

/** A suggestion, typed back, must be understood: it runs, asks for help, or only lacks inputs a form asks for. */
function parses(suggestion: string): boolean {
  const p = parseCommand(suggestion.replace(/^\/cloud\s*/, ''), catalog);
  return p.kind !== 'problem' || (!!p.problem.missing && !p.problem.didYouMean);
}

describe('did you mean', () => {
  it('suggests a resource and verb pair that exists (issue 14)', () => {
    expect(problem('acc use').didYouMean).toBe('/cloud account usage');
    expect(problem('s status 101').didYouMean).toBe('/cloud server status 101');
    expect(problem('ser cred 101').didYouMean).toBe('/cloud server credentials 101');
    expect(problem('sever status 101').didYouMean).toBe('/cloud server status 101');
    expect(problem('server stats 101').didYouMean).toBe('/cloud server status 101');
  });

  it('reads an unquoted word near a verb as a mistyped verb, not as the default verb\'s argument', () => {
    const cancel = problem('schedule cancle sch_0123456789');
    expect(cancel.message).toBe('`schedule` has no `cancle`.');
    expect(cancel.didYouMean).toBe('/cloud schedule cancel sch_0123456789');
    expect(problem('schedule cancle 3').usage.map((o) => o.id)).toEqual(['schedule.cancel']);
    expect(problem('schedule list').didYouMean).toBe('/cloud schedules list');
    // A quoted command, and an unquoted one that is near no verb, are still scheduled; a user id is still the policy's.
    expect(parseCommand('schedule "server status 101" daily 09:00', catalog).kind).toBe('run');
    expect(parseCommand('schedule audit daily 09:00', catalog).kind).toBe('run');
    expect(parseCommand('policy U0123ABC', catalog).kind).toBe('run');
  });

  it('a mistyped resource whose nearest command the API does not offer is told so; otherwise its commands are shown', () => {
    const add = problem('ssh-kye add');
    expect(add.notOffered).toBe(true);
    expect(add.message).toContain("I don't know `ssh-kye`. If you meant `ssh-key add`: The provider’s API cannot create SSH keys");
    expect(problem('ssh-kye frob').usage.map((o) => o.id)).toEqual(['ssh-key.list', 'ssh-key.show', 'ssh-key.delete']);
  });

  it('drops a leading `cloud` or `/cloud`: it is the command itself', () => {
    const p = problem('cloud server status 101');
    expect(p.didYouMean).toBe('/cloud server status 101');
    expect(p.message).toMatch(/`cloud`/);
    expect(problem('/cloud server status 101').didYouMean).toBe('/cloud server status 101');
    expect(problem('cloud sever status 101').didYouMean).toBe('/cloud server status 101');
  });

  it('never suggests a command that does not parse', () => {
    const typos = [
      'acc use', 's status 101', 'ser cred 101', 'sg status 101', 'sever frobnicate', 'svr', 'acct use', 'bakup lst 101',
      'wrkr stat 0d9c8b7a-6f5e-4d3c-9b2a-1f0e9d8c7b66', 'firewal show 7', 'k lst', 'pln list', 'cloud x y', 'polcy U0123ABC',
      'server frobnicate 1', 'ip subnet', 'watch cancle w1', 'schedule cancle sch_0123456789', 'schedule list', 'ssh-kye add', 'sub srv 101', 'acount invoice', 'audt --limit 5',
    ];
    for (const t of typos) {
      const s = problem(t).didYouMean;
      if (s?.startsWith('/cloud')) expect(parses(s), `${t} → ${s}`).toBe(true);
    }
  });
});

describe('--help', () => {
  it('shows one command’s usage on every command, nothing run', () => {
    for (const op of catalog.operations) {
      for (const ask of ['--help', '-h']) {
        const p = parseCommand(`${op.resource} ${op.verb} ${ask}`, catalog);
        expect(p.kind, `${op.id} ${ask}`).toBe('help');
        if (p.kind === 'help') expect(p.op?.id).toBe(op.id);
      }
    }
    // After arguments too, and as `help <resource> <verb>`.
    const after = parseCommand('server status 101 --help', catalog);
    expect(after.kind === 'help' && after.op?.id).toBe('server.status');
    const asked = parseCommand('help server status', catalog);
    expect(asked.kind === 'help' && asked.op?.id).toBe('server.status');
  });

  it('`help foo` says foo is unknown and suggests the nearest', () => {
    const p = problem('help foo');
    expect(p.message).toMatch(/`foo`/);
    expect(p.didYouMean).toBeUndefined();
    const near = problem('help sevrer');
    expect(near.didYouMean).toBe('/cloud help server');
    expect(parseCommand('help servers', catalog)).toEqual({ kind: 'help', resource: 'server' });
  });
});
