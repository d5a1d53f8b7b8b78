/** How failures look: a cloud refusal, a command Slack could not parse, a slow cloud. */
import { usageLine } from '../operations/catalog.js';
import type { ErrorText } from './cloud-error-text.js';
import type { CommandProblem } from '../operations/parse-command.js';
import type { Block, Reply } from '../operations/types.js';
import { code, context, esc, lineSections, section } from './blocks.js';

export function buildCloudError(what: string, e: ErrorText): Reply {
  const blocks: Block[] = [section(`:warning: *${esc(what)} failed.* ${esc(e.summary)}`)];
  if (e.fields) {
    const lines = Object.entries(e.fields).map(([field, msgs]) => `• ${code(field)}: ${msgs.map(esc).join('; ')}`);
    blocks.push(...lineSections(lines, 10));
  }
  blocks.push(context(`${esc(e.nextStep)} (code ${code(e.code)})`));
  return { text: `${what} failed: ${e.summary}`, blocks };
}

export function buildProblem(p: CommandProblem): Reply {
  const lines = [`:grey_question: ${esc(p.message)}`];
  if (p.didYouMean) lines.push(`Did you mean ${code(p.didYouMean)}?`);
  const blocks: Block[] = [section(lines.join('\n'))];
  if (p.usage.length) {
    const usage = p.usage.slice(0, 12).map((op) => `${code(usageLine(op))} — ${esc(op.summary)}`);
    blocks.push(...lineSections(usage, 4));
  }
  blocks.push(context('`/cloud help` lists every command.'));
  return { text: p.message, blocks };
}

export function buildSlowNotice(what: string): Reply {
  return {
    text: `${what}: the cloud is slow to answer`,
    blocks: [context(`:hourglass_flowing_sand: ${esc(what)}: the cloud is slow to answer. I will update this message when it does.`)],
  };
}

export function buildInternalError(what: string, ref: string): Reply {
  return {
    text: `${what} failed unexpectedly`,
    blocks: [section(`:boom: *${esc(what)} failed unexpectedly* inside the bot. An admin can find it in the log under reference ${code(ref)}.`)],
  };
}
