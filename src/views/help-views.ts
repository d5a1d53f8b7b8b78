/** `/cloud help` and `/cloud help <resource>`, generated from the catalog. */
import type { ArgHelp, CatalogHelp, OpHelp } from './catalog-shape.js';
import type { Block, Reply } from './types.js';
import { context, header, lineSections, section } from './blocks.js';
import { join, md, val, type Mrkdwn } from './mrkdwn.js';
import { words } from './words.js';
import { accountValue } from './account-label.js';
import { valueList } from './tier-words.js';
import { aliasHelpBlocks } from './alias-views.js';
import type { AliasRecord } from '../store/alias-types.js';
import { notOfferedHelpLine } from './not-offered-text.js';

function opLine(catalog: CatalogHelp, op: OpHelp): Mrkdwn {
  return md`${val(catalog.usage(op))}\n      ${words(op.summary)}`;
}

/** Where help is asked: the account this channel drives and those `--account` may choose. */
export interface HelpWhere {
  account?: string;
  accounts?: string[];
  /** `help --account NAME`: the account was chosen, not this channel's own. */
  chosen?: boolean;
  /** This channel's aliases the asker may run (general help lists them). */
  aliases?: readonly Pick<AliasRecord, 'name' | 'command'>[];
}

/** Which account this channel drives, and how to choose another; nothing with one account. */
function accountLine(where: HelpWhere | undefined): Block[] {
  if (where?.account === undefined) return [];
  if (where.chosen) return [context(md`With ${val(`--account ${where.account}`)}, commands act on account ${accountValue(where.account)}; this lists what you may run there.`)];
  const others = (where.accounts ?? []).filter((a) => a !== where.account);
  const choose = others.length ? md` ${val('--account NAME')} chooses another: ${valueList(others)}.` : md``;
  return [context(md`Commands here act on account ${accountValue(where.account)}.${choose}`)];
}

/** `ops` is what the asker may run (issue 6 filters it); resources without any are left out. */
export function buildHelp(catalog: CatalogHelp, ops: readonly OpHelp[], resource?: string, where?: HelpWhere): Reply {
  const visible = new Set(ops.map((o) => o.id));
  if (resource) {
    const info = catalog.resources.find((r) => r.name === resource);
    const mine = catalog.forResource(resource).filter((o) => visible.has(o.id));
    if (!info || mine.length === 0) return buildHelp(catalog, ops, undefined, where);
    // The account line comes early: the 50-block cut below must not drop it.
    const blocks: Block[] = [header(`/cloud ${info.name} — ${info.title}`), ...accountLine(where), ...lineSections(mine.map((op) => opLine(catalog, op)), 40)];
    for (const op of mine) {
      const args = (Object.entries(op.args) as [string, ArgHelp][]).filter(([, a]) => a.kind !== 'modal');
      if (args.length) {
        const lines = args.map(([name, a]) => md`${val(a.kind === 'flag' || a.kind === 'switch' ? `--${name}` : `<${a.placeholder}>`)} ${words(a.description)}`);
        blocks.push(context(md`*${words(op.verb)}*: ${join(lines, ' · ')}`));
      }
    }
    if (info.aliases.length) blocks.push(context(md`Also written: ${join(info.aliases.map((a) => val(a)), ', ')}`));
    const missing = notOfferedHelpLine(info.notOffered ?? []);
    if (missing) blocks.push(context(missing));
    return { text: md`Help for ${val(`/cloud ${info.name}`)}`, blocks: blocks.slice(0, 50) };
  }
  const lines = catalog.resources
    .map((r) => ({ r, mine: catalog.forResource(r.name).filter((o) => visible.has(o.id)) }))
    .filter(({ mine }) => mine.length > 0)
    .map(({ r, mine }) => md`*${words(r.title)}* — ${val(`/cloud help ${r.name}`)}\n${join(mine.map((o) => md`   ${val(catalog.usage(o))}`), '\n')}`);
  // Within the 50-block limit: at most 5 for aliases, the rest for the commands.
  const aliases = lines.length ? aliasHelpBlocks(where?.aliases ?? [], 5) : [];
  return {
    text: md`cloudbot commands`,
    blocks: [
      header('cloudbot — run the cloud account from Slack'),
      ...(lines.length ? lineSections(lines, 45 - aliases.length) : [section(md`You may not run any command here. Ask an admin for access.`)]),
      ...aliases,
      context(md`Reads answer only you. Ids: a server is its numeric id, 8-character short uuid or full uuid.`),
      ...accountLine(where),
    ],
  };
}
