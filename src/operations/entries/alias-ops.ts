/**
 * Aliases (issue 14): a channel saves a command under a word. Operators save and delete (the
 * creator or an admin deletes); anyone who may read lists them. They act on the bot's own state
 * (scope `bot`). Running an alias is not an operation: the slash command expands it and the
 * expanded command is parsed, checked and run as if typed (app/alias-commands.ts).
 */
import { z } from 'zod';
import { buildAliasCreated, buildAliasList, buildAliasRemoved } from '../../views/alias-views.js';
import { ALIAS_NAME, normalizeCommand } from '../alias-grammar.js';
import { botEntries, channelControl, declinedKinds, positional, rest } from '../define.js';

const nameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(ALIAS_NAME, { error: 'must be a lower-case word of letters, digits and dashes (at most 30)' });

const aliases = botEntries(channelControl('aliases'));

export const aliasCreate = aliases.change({
  id: 'alias.create',
  summary: 'Save a command under a word for this channel; $1…$9 are its arguments, $* the rest',
  args: {
    name: positional('name', nameSchema, 'a lower-case word that is not a command word'),
    command: { ...rest('command', z.string().max(1000, { error: 'is too long (at most 1000 characters)' }).transform(normalizeCommand), 'a /cloud command, e.g. server status $1'), lead: '=' },
  },
  run: (c, { name, command }) => c.aliases.create({ channelId: c.channelId, userId: c.userId, name, command, ...(c.teamId ? { teamId: c.teamId } : {}) }),
  render: (outcome) => buildAliasCreated(outcome),
  declined: declinedKinds({ invalid: 'INVALID_INPUT', taken: 'NAME_TAKEN', full: 'LIMIT_REACHED' }),
});

export const aliasList = aliases.read({
  id: 'alias.list',
  summary: 'This channel’s aliases and the commands they run',
  args: {},
  run: (c) => c.aliases.list(c.channelId),
  render: (aliases) => buildAliasList(aliases),
});

export const aliasDelete = aliases.change({
  id: 'alias.delete',
  summary: 'Delete one of this channel’s aliases (its creator or an admin)',
  args: { name: positional('name', nameSchema, 'the alias, as /cloud aliases lists it') },
  run: (c, { name }) => c.aliases.remove(name, c.channelId, c.userId),
  render: (outcome) => buildAliasRemoved(outcome),
  declined: declinedKinds({ none: 'NOT_FOUND', 'not-yours': 'ACCESS_DENIED' }),
});

/** This file's catalog entries (src/operations/index.ts lists each file's array once). */
export const ALIAS_OPS = [aliasCreate, aliasList, aliasDelete];
