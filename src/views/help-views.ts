/** `/cloud help` and `/cloud help <resource>`, generated from the catalog. */
import type { Catalog } from '../operations/catalog.js';
import type { AnyOperation, ArgSpec } from '../operations/types.js';
import type { Block, Reply } from './types.js';
import { context, header, lineSections, section } from './blocks.js';
import { join, md, val, type Mrkdwn } from './mrkdwn.js';
import { words } from './words.js';

function opLine(catalog: Catalog, op: AnyOperation): Mrkdwn {
  return md`${val(catalog.usage(op))}\n      ${words(op.summary)}`;
}

/** `ops` is what the asker may run (issue 6 filters it); resources without any are left out. */
export function buildHelp(catalog: Catalog, ops: AnyOperation[], resource?: string): Reply {
  const visible = new Set(ops.map((o) => o.id));
  if (resource) {
    const info = catalog.resources.find((r) => r.name === resource);
    const mine = catalog.forResource(resource).filter((o) => visible.has(o.id));
    if (!info || mine.length === 0) return buildHelp(catalog, ops);
    const blocks: Block[] = [header(`/cloud ${info.name} — ${info.title}`), ...lineSections(mine.map((op) => opLine(catalog, op)), 40)];
    for (const op of mine) {
      const args = (Object.entries(op.args) as [string, ArgSpec][]).filter(([, a]) => a.kind !== 'modal');
      if (args.length) {
        const lines = args.map(([name, a]) => md`${val(a.kind === 'flag' || a.kind === 'switch' ? `--${name}` : `<${a.placeholder}>`)} ${words(a.description)}`);
        blocks.push(context(md`*${words(op.verb)}*: ${join(lines, ' · ')}`));
      }
    }
    if (info.aliases.length) blocks.push(context(md`Also written: ${join(info.aliases.map((a) => val(a)), ', ')}`));
    return { text: md`Help for ${val(`/cloud ${info.name}`)}`, blocks: blocks.slice(0, 50) };
  }
  const lines = catalog.resources
    .map((r) => ({ r, mine: catalog.forResource(r.name).filter((o) => visible.has(o.id)) }))
    .filter(({ mine }) => mine.length > 0)
    .map(({ r, mine }) => md`*${words(r.title)}* — ${val(`/cloud help ${r.name}`)}\n${join(mine.map((o) => md`   ${val(catalog.usage(o))}`), '\n')}`);
  return {
    text: md`cloudbot commands`,
    blocks: [
      header('cloudbot — run the cloud account from Slack'),
      ...(lines.length ? lineSections(lines, 45) : [section(md`You may not run any command here. Ask an admin for access.`)]),
      context(md`Reads answer only you. Ids: a server is its numeric id, 8-character short uuid or full uuid.`),
    ],
  };
}
