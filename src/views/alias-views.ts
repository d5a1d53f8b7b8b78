/**
 * Aliases in Slack (issue 14): the answers to saving, listing and deleting one, the note that
 * names what an alias ran, and help's list. Names and commands were typed by people: values.
 * A saved command is Slack-escaped text (as typed), shown unescaped.
 */
import type { AliasRecord } from '../store/alias-types.js';
import type { Block, Reply } from './types.js';
import { context, header, lineSections, section } from './blocks.js';
import { md, mention, unescapeEntities, val, type Mrkdwn } from './mrkdwn.js';
import { plural } from './format.js';

/** What saving an alias came to: saved, or why not (a bad name or command, the name taken, too many). */
export type AliasCreateOutcome =
  | { kind: 'created'; record: AliasRecord; op: { command: string } }
  | { kind: 'invalid'; problem: Mrkdwn }
  | { kind: 'taken'; existing: AliasRecord }
  | { kind: 'full'; max: number };

export type AliasRemoveOutcome = { kind: 'removed'; record: AliasRecord } | { kind: 'none'; name: string } | { kind: 'not-yours'; record: AliasRecord };

/** `/cloud server status $1` as saved. */
export const aliasCommand = (command: string): Mrkdwn => val(`/cloud ${unescapeEntities(command)}`);

/** "`web` → `/cloud server status $1`" */
export const aliasLine = (a: Pick<AliasRecord, 'name' | 'command'>): Mrkdwn => md`${val(a.name)} → ${aliasCommand(a.command)}`;

export function buildAliasCreated(outcome: AliasCreateOutcome): Reply {
  switch (outcome.kind) {
    case 'created': {
      const a = outcome.record;
      const text = md`:white_check_mark: Saved: ${val(`/cloud ${a.name}`)} runs ${aliasCommand(a.command)} in this channel.`;
      return {
        text,
        blocks: [
          section(text),
          context(md`It is checked like the command itself: whoever runs it needs the role for ${val(outcome.op.command)}, and changes still ask to confirm. ${val('/cloud aliases')} lists this channel’s aliases.`),
        ],
      };
    }
    case 'invalid':
      return { text: md`:grey_question: ${outcome.problem}`, blocks: [section(md`:grey_question: ${outcome.problem}`)] };
    case 'taken': {
      const a = outcome.existing;
      const text = md`:grey_question: ${val(a.name)} is already an alias here: ${aliasLine(a)} (saved by ${mention(a.createdBy)}). Delete it first with ${val(`/cloud alias delete ${a.name}`)}.`;
      return { text, blocks: [section(text)] };
    }
    case 'full': {
      const text = md`:grey_question: This channel has ${outcome.max} aliases, the most it may have. Delete one first (${val('/cloud aliases')} lists them).`;
      return { text, blocks: [section(text)] };
    }
  }
}

export function buildAliasRemoved(outcome: AliasRemoveOutcome): Reply {
  let text: Mrkdwn;
  switch (outcome.kind) {
    case 'removed':
      text = md`:wastebasket: Deleted the alias ${aliasLine(outcome.record)}.`;
      break;
    case 'none':
      text = md`:grey_question: This channel has no alias ${val(outcome.name)} (${val('/cloud aliases')} lists them).`;
      break;
    case 'not-yours':
      text = md`:no_entry: ${val(outcome.record.name)} was saved by ${mention(outcome.record.createdBy)}: only they or an admin may delete it.`;
      break;
  }
  return { text, blocks: [section(text)] };
}

export function buildAliasList(aliases: readonly AliasRecord[]): Reply {
  if (aliases.length === 0) {
    const text = md`This channel has no aliases. Save one with ${val('/cloud alias web = server status $1')}, then run ${val('/cloud web 101')}.`;
    return { text, blocks: [section(text)] };
  }
  const lines = aliases.map((a) => md`${aliasLine(a)} · by ${mention(a.createdBy)}`);
  return {
    text: md`${plural(aliases.length, md`alias`, md`aliases`)} in this channel`,
    blocks: [
      header('Aliases in this channel'),
      ...lineSections(lines, 45),
      context(md`Run one as ${val('/cloud NAME [arguments]')}; it is checked like the command it runs. ${val('/cloud alias delete NAME')} deletes one.`),
    ],
  };
}

/** Shown above the answer to an alias: what it ran. */
export function aliasNote(name: string, expanded: string): Block {
  return context(md`Ran ${val(`/cloud ${unescapeEntities(expanded)}`)} (alias ${val(name)})`);
}

/** The note alone, when the answer went elsewhere (a change's status message in the channel). */
export function buildAliasNote(name: string, expanded: string): Reply {
  return { text: md`Ran ${val(`/cloud ${unescapeEntities(expanded)}`)} (alias ${val(name)})`, blocks: [aliasNote(name, expanded)] };
}

/** Why an alias could not be expanded (the wrong number of arguments, an unquotable one). */
export function buildAliasProblem(problem: Mrkdwn): Reply {
  return { text: md`:grey_question: ${problem}`, blocks: [section(md`:grey_question: ${problem}`), context(md`${val('/cloud aliases')} lists this channel’s aliases.`)] };
}

/** Help's section: the channel's aliases the asker may run, within `maxBlocks`. */
export function aliasHelpBlocks(aliases: readonly Pick<AliasRecord, 'name' | 'command'>[], maxBlocks: number): Block[] {
  if (aliases.length === 0 || maxBlocks < 1) return [];
  const lines = [md`*Aliases in this channel* — ${val('/cloud aliases')}`, ...aliases.map((a) => md`   ${aliasLine(a)}`)];
  return lineSections(lines, maxBlocks);
}
