/** Aliases: reading a definition, checking names and commands, and substituting `$1`… as typed. */
import { describe, expect, it } from 'vitest';
import { ALIAS_PLACEHOLDERS_MAX, aliasOperation, aliasWord, checkAliasCommand, checkAliasName, definitionTokens, expandAlias } from '../../../src/operations/alias-grammar.js';
import { catalog } from '../../../src/operations/index.js';
import { parseCommand } from '../../../src/operations/parse-command.js';
import { COMMAND_TEXT_MAX, tokenize } from '../../../src/operations/tokenize.js';

const expand = (command: string, typed: string) => expandAlias({ name: 'a', command }, tokenize(typed));

describe('alias definitions', () => {
  it('`alias NAME = …` parses as alias create with the command verbatim (flags, quotes, $1 kept)', () => {
    const parsed = parseCommand('alias web = server rename $1 "new name" --dry-run', catalog);
    expect(parsed).toMatchObject({ kind: 'run', op: { id: 'alias.create' }, args: { name: 'web', command: 'server rename $1 "new name" --dry-run' }, dryRun: false });
    expect(parseCommand('aliases create Web=/cloud server status $1', catalog)).toMatchObject({ kind: 'run', args: { name: 'web', command: 'server status $1' } });
    expect(parseCommand('alias', catalog)).toMatchObject({ kind: 'run', op: { id: 'alias.list' } });
    expect(parseCommand('aliases', catalog)).toMatchObject({ kind: 'run', op: { id: 'alias.list' } });
    expect(parseCommand('alias delete web', catalog)).toMatchObject({ kind: 'run', op: { id: 'alias.delete' }, args: { name: 'web' } });
    expect(definitionTokens('server status 101', catalog)).toBeUndefined();
    expect(definitionTokens('alias --account=prod', catalog)).toBeUndefined();
  });

  it('`alias NAME =` with no command asks for one', () => {
    const parsed = parseCommand('alias web =', catalog);
    expect(parsed.kind).toBe('problem');
  });

  it('refuses names that are command words or not lower-case words', () => {
    expect(checkAliasName('server', catalog)).toMatch(/already a command word/);
    expect(checkAliasName('srv', catalog)).toMatch(/already a command word/); // a resource's other word
    expect(checkAliasName('help', catalog)).toMatch(/already a command word/);
    expect(checkAliasName('alias', catalog)).toMatch(/already a command word/);
    expect(checkAliasName('9lives', catalog)).toMatch(/lower-case word/);
    expect(checkAliasName('web', catalog)).toBeUndefined();
  });

  it('accepts only catalog commands: never another alias, an alias command or an unknown verb', () => {
    expect(checkAliasCommand('server status $1', catalog)).toMatchObject({ ok: true, op: { id: 'server.status' } });
    expect(checkAliasCommand('audit --limit 5', catalog)).toMatchObject({ ok: true, op: { id: 'audit.list' } });
    expect(checkAliasCommand('web 101', catalog)).toMatchObject({ ok: false, problem: expect.stringMatching(/cannot run another alias/) });
    expect(checkAliasCommand('alias x = server status', catalog)).toMatchObject({ ok: false });
    expect(checkAliasCommand('server explode $1', catalog)).toMatchObject({ ok: false, problem: expect.stringMatching(/has no/) });
    expect(checkAliasCommand('server status "101', catalog)).toMatchObject({ ok: false, problem: expect.stringMatching(/never closed/) });
    expect(checkAliasCommand('server status $2', catalog)).toMatchObject({ ok: false, problem: expect.stringMatching(/not .*\$1/) });
  });
});

describe('alias expansion', () => {
  it('puts the arguments in place of $1…$9 and $*', () => {
    expect(expand('server status $1', '101')).toEqual({ ok: true, text: 'server status 101' });
    expect(expand('sg rule add $2 $1', 'tcp 7')).toEqual({ ok: true, text: 'sg rule add 7 tcp' });
    expect(expand('audit $*', '--limit 5')).toEqual({ ok: true, text: 'audit --limit 5' });
    expect(expand('audit $*', '')).toEqual({ ok: true, text: 'audit ' });
  });

  it('keeps quoting: a quoted or spaced argument stays one word; inside the alias’s quotes it is put raw', () => {
    const quoted = expand('server rename $1 $2', '101 "web one"');
    expect(quoted).toEqual({ ok: true, text: 'server rename 101 "web one"' });
    expect(parseCommand((quoted as { text: string }).text, catalog)).toMatchObject({ kind: 'run', args: { name: 'web one' } });
    // A quoted `--flag` stays a value, not a flag.
    expect(expand('server rename $1 $2', '101 "--x"')).toEqual({ ok: true, text: 'server rename 101 "--x"' });
    expect(expand('server rename $1 "web $2"', '101 one')).toEqual({ ok: true, text: 'server rename 101 "web one"' });
    expect(expand('server rename $1 $2', `101 'say "hi"'`)).toEqual({ ok: true, text: `server rename 101 'say "hi"'` });
    expect(expand('server rename $1 "x $2"', `101 'a"b'`)).toMatchObject({ ok: false, problem: expect.stringMatching(/quote/) });
  });

  it('an argument cannot smuggle markup or break out of its word', () => {
    const r = expand('server rename $1 $2', '101 "<!here> & co"');
    expect(r).toEqual({ ok: true, text: 'server rename 101 "&lt;!here&gt; &amp; co"' });
    expect(parseCommand((r as { text: string }).text, catalog)).toMatchObject({ kind: 'run', args: { name: '<!here> & co' } });
  });

  it('counts the arguments: too few and too many are refused, naming what it needs', () => {
    expect(expandAlias({ name: 'deploy-api', command: 'server status $1' }, [])).toMatchObject({
      ok: false,
      problem: expect.stringMatching(/`deploy-api` needs 1 argument \(`\$1`\)/),
    });
    expect(expand('server status $1', '101 102')).toMatchObject({ ok: false, problem: expect.stringMatching(/`102` is more than it takes/) });
    expect(expand('plan list', 'x')).toMatchObject({ ok: false, problem: expect.stringMatching(/takes no arguments/) });
    expect(expand('sg rule add $2 $1', 'tcp')).toMatchObject({ ok: false, problem: expect.stringMatching(/needs 2 arguments/) });
  });

  it('passes --account and --dry-run on to the expanded command', () => {
    expect(expand('server rename $1 $2', '101 web --dry-run --account prod')).toEqual({ ok: true, text: 'server rename 101 web --dry-run --account prod' });
    expect(expand('server status $1', '--account=prod 101')).toEqual({ ok: true, text: 'server status 101 --account=prod' });
  });

  it('looks a first word up as an alias only when it is no resource or help word', () => {
    expect(aliasWord(tokenize('web 101'), catalog)).toBe('web');
    expect(aliasWord(tokenize('WEB 101'), catalog)).toBe('web');
    expect(aliasWord(tokenize('server status 101'), catalog)).toBeUndefined();
    expect(aliasWord(tokenize('help'), catalog)).toBeUndefined();
    expect(aliasWord(tokenize('"web" 101'), catalog)).toBeUndefined();
  });
});

describe('alias bounds (issue 21)', () => {
  it('refuses to save more placeholders than an alias may hold, saying how many it holds', () => {
    expect(checkAliasCommand(`server rename 101 ${'$1'.repeat(ALIAS_PLACEHOLDERS_MAX)}`, catalog)).toMatchObject({ ok: true });
    const many = checkAliasCommand(`server rename 101 ${'$1'.repeat(490)}`, catalog);
    expect(many).toMatchObject({ ok: false, problem: expect.stringMatching(/holds 490 placeholders; an alias may hold at most 10/) });
    // The operation it runs is still known, so access can be checked on it before expanding.
    expect(aliasOperation(`server rename 101 ${'$1'.repeat(490)}`, catalog)).toMatchObject({ ok: true, op: { id: 'server.rename' } });
  });

  it('an expansion longer than a command may be is refused, not built', () => {
    const arg = 'x'.repeat(3900);
    const r = expand(`server rename 101 ${'$1'.repeat(490)}`, arg);
    expect(r).toMatchObject({ ok: false, problem: expect.stringMatching(/longer than 4000 characters/) });
    // Right at the limit it runs; one character more does not.
    const fits = 'y'.repeat(COMMAND_TEXT_MAX - 'server status '.length);
    expect(expand('server status $1', fits)).toEqual({ ok: true, text: `server status ${fits}` });
    expect(expand('server status $1', `${fits}y`)).toMatchObject({ ok: false });
    // Escaping counts: `&` travels as `&amp;`, as Slack sends it.
    expect(expand('server status $1', '&'.repeat(1000))).toMatchObject({ ok: false });
  });
});
