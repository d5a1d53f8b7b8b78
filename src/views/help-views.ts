/** `/cloud help` and `/cloud help <resource>`, generated from the catalog. */
import { usageLine, type Catalog } from '../operations/catalog.js';
import type { AnyOperation, ArgSpec, Block, Reply } from '../operations/types.js';
import { code, context, esc, header, lineSections, section } from './blocks.js';

function opLine(op: AnyOperation): string {
  return `${code(usageLine(op))}\n      ${esc(op.summary)}`;
}

/** `ops` is what the asker may run (issue 6 filters it); resources without any are left out. */
export function buildHelp(catalog: Catalog, ops: AnyOperation[], resource?: string): Reply {
  const visible = new Set(ops.map((o) => o.id));
  if (resource) {
    const info = catalog.resources.find((r) => r.name === resource);
    const mine = catalog.forResource(resource).filter((o) => visible.has(o.id));
    if (!info || mine.length === 0) return buildHelp(catalog, ops);
    const blocks: Block[] = [header(`/cloud ${info.name} — ${info.title}`), ...lineSections(mine.map(opLine), 40)];
    for (const op of mine) {
      const args = (Object.entries(op.args) as [string, ArgSpec][]).filter(([, a]) => a.kind !== 'modal');
      if (args.length) {
        const lines = args.map(([name, a]) => `${code(a.kind === 'flag' || a.kind === 'switch' ? `--${name}` : `<${a.placeholder}>`)} ${esc(a.description)}`);
        blocks.push(context(`*${op.verb}*: ${lines.join(' · ')}`));
      }
    }
    if (info.aliases.length) blocks.push(context(`Also written: ${info.aliases.map((a) => code(a)).join(', ')}`));
    return { text: `Help for /cloud ${info.name}`, blocks: blocks.slice(0, 50) };
  }
  const lines = catalog.resources
    .map((r) => ({ r, mine: catalog.forResource(r.name).filter((o) => visible.has(o.id)) }))
    .filter(({ mine }) => mine.length > 0)
    .map(({ r, mine }) => `*${esc(r.title)}* — ${code(`/cloud help ${r.name}`)}\n${mine.map((o) => `   ${code(usageLine(o))}`).join('\n')}`);
  return {
    text: 'cloudbot commands',
    blocks: [
      header('cloudbot — run the cloud account from Slack'),
      ...(lines.length ? lineSections(lines, 45) : [section('You may not run any command here. Ask an admin for access.')]),
      context('Reads answer only you. Ids: a server is its numeric id, 8-character short uuid or full uuid.'),
    ],
  };
}
