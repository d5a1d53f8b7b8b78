import { context, header, lineSections, section } from './blocks.js';
import { md, val } from './mrkdwn.js';
import { words } from './words.js';
export function buildCommandHelp(catalog, op) {
    const args = Object.entries(op.args).filter(([, a]) => a.kind !== 'modal');
    const lines = args.map(([name, a]) => md `${val(a.kind === 'flag' || a.kind === 'switch' ? `--${name}` : `<${a.placeholder}>`)} ${words(a.description)}`);
    if (op.change)
        lines.push(md `${val('--dry-run')} show the exact request; send nothing`);
    const blocks = [header(op.command), section(md `${val(catalog.usage(op))}\n${words(op.summary)}`)];
    if (lines.length)
        blocks.push(...lineSections(lines, 20));
    blocks.push(context(md `${val(`/cloud help ${op.resource}`)} lists the other ${words(op.resource)} commands.`));
    return { text: md `Help for ${val(op.command)}`, blocks };
}
//# sourceMappingURL=command-help-views.js.map