/**
 * `step NAME key=value …` in the shell (issue 23): runs a Workflow Builder step with named
 * inputs, as Workflow Builder would send it. `channel` and `requester` default to the shell's
 * channel and person; integer inputs are sent as numbers, like Slack's typed inputs. The bot
 * validates everything else; this only reads the line.
 */
import { STEPS, type StepSpec } from '../operations/steps.js';

export type StepLine = { ok: true; step: StepSpec; inputs: Record<string, unknown> } | { ok: false; message: string };

const dashed = (id: string) => id.replace(/_/g, '-');

export function stepsHelp(): string {
  const lines = STEPS.map((s) => {
    const inputs = s.inputs.filter((p) => p.arg).map((p) => (p.optional ? `[${p.name}=…]` : `${p.name}=…`));
    return `  step ${dashed(s.callbackId)} ${inputs.join(' ')}`.trimEnd() + `\n      ${s.description}`;
  });
  return ['Workflow steps (channel= and requester= default to this channel and you):', ...lines].join('\n');
}

/** Words of a line: `key=value`, `key="two words"`. */
function words(text: string): string[] | undefined {
  const out: string[] = [];
  const re = /\s*([^\s="']+)=(?:"([^"]*)"|'([^']*)'|(\S*))/y;
  let rest = text.trim();
  while (rest) {
    re.lastIndex = 0;
    const m = re.exec(rest);
    if (!m) return undefined;
    out.push(m[1]!, m[2] ?? m[3] ?? m[4] ?? '');
    rest = rest.slice(re.lastIndex).trim();
  }
  return out;
}

export function parseStepLine(text: string, where: { channel: string; requester: string }): StepLine {
  const [name, ...rest] = text.trim().split(/\s+/);
  const step = STEPS.find((s) => s.callbackId === name?.replace(/-/g, '_'));
  if (!step) return { ok: false, message: `There is no step ${name ?? ''}.\n${stepsHelp()}` };
  const pairs = words(text.trim().slice(name!.length));
  if (!pairs) return { ok: false, message: `Give inputs as name=value (quote a value with spaces). ${rest.join(' ')}` };
  const inputs: Record<string, unknown> = { channel: where.channel, requester: where.requester };
  for (let i = 0; i < pairs.length; i += 2) {
    const [key, value] = [pairs[i]!, pairs[i + 1]!];
    const param = step.inputs.find((p) => p.name === key);
    if (!param) return { ok: false, message: `Step ${dashed(step.callbackId)} has no input ${key}; it takes ${step.inputs.map((p) => p.name).join(', ')}.` };
    inputs[key] = param.type === 'integer' && /^\d{1,15}$/.test(value) ? Number(value) : value;
  }
  return { ok: true, step, inputs };
}
