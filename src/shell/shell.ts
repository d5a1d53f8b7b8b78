/**
 * The REPL: `/cloud …` lines become slash commands, a bare number presses that button, a
 * modal the bot opens is walked field by field and submitted (fields the bot refuses are
 * asked again with its message), `help` explains, `exit` or Ctrl-D ends. Everything goes
 * through the shell receiver into the real Bolt app; nothing here knows any command.
 */
import type { Readable, Writable } from 'node:stream';
import { ButtonRegistry, findButton } from './button-registry.js';
import { attachEventPrinter } from './event-printer.js';
import type { AnswerCheck } from './field-check.js';
import { CANCEL_WORD, formFields, stateValues, walkFields, type FormIO } from './form-walk.js';
import { SHELL_USER } from './identity.js';
import { LineReader } from './line-reader.js';
import type { JsonObject, ShellView } from './local-model.js';
import type { LocalSlack } from './local-slack.js';
import { mrkdwnToText, type TextContext } from './mrkdwn-text.js';
import { appHomeOpenedBody, blockActionsBody, functionExecutedBody, linkSharedBody, messageShortcutBody, slashCommandBody, viewActionBody, viewSubmissionBody, type Clicked } from './payloads.js';
import { ACT_CALLBACK } from '../views/act-on-this-views.js';
import { parseStepLine, stepsHelp } from './step-line.js';
import type { ShellReceiver } from './shell-receiver.js';
import { channelListText, findChannel, HOME_CHANNEL, switchedText, type ShellChannel } from './shell-channels.js';

export const COMMAND = '/cloud';
const PROMPT = 'cloud> ';

export const SHELL_HELP = [
  'This is cloudbot’s local shell: the same bot as in Slack, with you (an admin) alone in #shell',
  'and in every channel of the policy file (ACCESS_POLICY), if there is one.',
  '  /cloud help          what the bot can do; every command works as in Slack',
  '  /cloud <command>     run one, e.g. /cloud server status 101',
  '  <number>             press the button shown as [number] on the latest message with buttons',
  `  ${CANCEL_WORD.padEnd(20)} close the form you are filling in (nothing is sent)`,
  '  channel              list the channels, each with the account it drives',
  '  channel NAME         switch to one (NAME or its id): your commands then come from it',
  '  home                 your App Home tab: usage, requests waiting, watches, recent activity',
  '  shortcut TEXT        "Act on this" on a message saying TEXT: what it names, and what you may run',
  '  link URL…            post links (a pasted https:// line does too): the previews cloudbot attaches',
  '  step NAME k=v …      run a Workflow Builder step with named inputs (step alone lists them)',
  '  help, exit           this text; quit (Ctrl-D does too)',
].join('\n');

export interface ShellOptions {
  input: Readable;
  output: Writable;
  /** A real terminal: prompts, redrawing. Without one each command line is echoed, so the output reads as a transcript. */
  terminal: boolean;
  /** ANSI styles (the output is a terminal, even when input is piped). Default: `terminal`. */
  ansi?: boolean;
  receiver: ShellReceiver;
  slack: LocalSlack;
  /** The channels to choose from, the first being where the shell starts (default: #shell only). */
  channels?: ShellChannel[];
  /** Checks each form answer as it is given (field-check.ts); without it only the submission is checked. */
  checkAnswer?: AnswerCheck;
}

export interface Shell {
  /** Writes text above the prompt (start-up lines). */
  print(text: string): void;
  /** A log line: held while a reply is being printed, so it never splits one (issue 14). */
  log(text: string): void;
  /** Runs until `exit`, Ctrl-D or the end of input; resolves once the last line's work is done. */
  run(): Promise<void>;
  /** Ends input as Ctrl-D does: the line in progress finishes, then run() resolves. */
  close(): void;
}

export function createShell(opts: ShellOptions): Shell {
  const reader = new LineReader(opts.input, opts.output, opts.terminal);
  const channels = opts.channels?.length ? opts.channels : [HOME_CHANNEL];
  let current = channels[0]!;
  const ctx: TextContext = { userId: SHELL_USER.id, channels: Object.fromEntries(channels.map((c) => [c.id, c.name])), ansi: opts.ansi ?? opts.terminal };
  // With one channel the prompt stays as it was; with several it says which one commands come from.
  const prompt = () => (channels.length > 1 ? `cloud #${current.name}> ` : PROMPT);
  const registry = new ButtonRegistry();
  const { model } = opts.slack;
  const print = (text: string) => reader.print(text);
  // While the app handles a line (its reply may be several posts), log lines wait here.
  let replying = 0;
  const held: string[] = [];
  const log = (text: string) => (replying > 0 ? held.push(text) : print(text));
  const forms: string[] = [];
  let formArrived: (() => void) | undefined;
  let inForm = false;

  attachEventPrinter({
    model,
    registry,
    ctx,
    print,
    onForm(view) {
      if (!forms.includes(view.id)) forms.push(view.id);
      formArrived?.();
    },
  });
  reader.onInterrupt = () => (inForm ? reader.inject(CANCEL_WORD) : reader.close());

  /** Hands a body to the app and waits until its handler is done. */
  async function dispatch(body: JsonObject): Promise<unknown> {
    replying += 1;
    try {
      const delivery = opts.receiver.deliver(body);
      const acked = await delivery.acked;
      await delivery.done;
      return acked;
    } finally {
      replying -= 1;
      if (replying === 0) for (const line of held.splice(0)) print(line);
    }
  }

  /** The refusal of a number shown on an older message: it names the numbers that work now. */
  function earlierButton(n: number): string {
    const now = registry.latest().filter((r) => {
      const blocks = r.surface.kind === 'message' ? model.messages.get(r.surface.ts)?.blocks : (model.ephemerals.get(r.surface.ts) ?? model.views.get(r.surface.ts)?.view)?.blocks;
      return Array.isArray(blocks) && findButton(blocks, r) !== undefined;
    });
    const offer = now.length ? ` Its buttons now: ${now.map((r) => `[${r.n}] ${r.label}`).join('  ')}.` : '';
    return `Button [${n}] is on an earlier message: numbers press the buttons of the latest message that has them.${offer} Run the command again to use the earlier one.`;
  }

  async function press(n: number): Promise<void> {
    const r = registry.get(n);
    if (!r) return print(`There is no button [${n}].`);
    const message = r.surface.kind === 'message' ? model.messages.get(r.surface.ts) : undefined;
    const ephemeral = r.surface.kind === 'ephemeral' ? model.ephemerals.get(r.surface.ts) : undefined;
    const source = message ?? ephemeral;
    // A button of the Home tab (printed like a text-only view): its click carries the view, no channel.
    const home = !source && r.surface.kind === 'ephemeral' ? model.views.get(r.surface.ts) : undefined;
    // The Home tab, or a modal that only shows buttons (Act on this): the click carries the view.
    if (home?.view.type === 'home' || home?.view.type === 'modal') {
      const blocks = Array.isArray(home.view.blocks) ? home.view.blocks : [];
      const hit = findButton(blocks, r);
      if (!hit) return print(`Button [${n}] is no longer there: the view has changed since.`);
      const label = (hit.element.text as { text?: unknown } | undefined)?.text;
      if (home.view.type === 'modal') print(`→ pressed [${n}] ${typeof label === 'string' ? label : hit.element.action_id}`);
      if (!registry.isLatest(r.surface)) return print(earlierButton(n));
      await dispatch(viewActionBody(hit.element, hit.blockId, home.view));
      return;
    }
    const found = source && !source.deleted ? findButton(source.blocks, r) : undefined;
    if (!source || !found) return print(`Button [${n}] is no longer there: its message has changed since.`);
    if (!registry.isLatest(r.surface)) return print(earlierButton(n));
    // Say what the number pressed, so a wrong number is seen at once (issue 14).
    const label = (found.element.text as { text?: unknown } | undefined)?.text;
    print(`→ pressed [${n}] ${typeof label === 'string' ? label : found.element.action_id}`);
    const where: Clicked['where'] = message
      ? { kind: 'message', channel: message.channel, ts: message.ts, text: message.text, blocks: message.blocks, ...(message.threadTs ? { threadTs: message.threadTs } : {}) }
      : { kind: 'ephemeral', channel: source.channel, ts: source.ts };
    // As in Slack, a click comes from the channel its message is in, wherever you are now.
    const responseUrl = opts.slack.responseUrl(ephemeral ? ephemeral.ts : undefined, source.channel);
    await dispatch(blockActionsBody({ element: found.element, blockId: found.blockId, where }, responseUrl, ctx.channels[source.channel] ?? source.channel));
  }

  async function walkForm(view: ShellView): Promise<void> {
    const v = view.view;
    const fields = formFields(v);
    const title = (v.title as { text?: string } | undefined)?.text ?? 'Form';
    const intro = (Array.isArray(v.blocks) ? v.blocks : [])
      .filter((b) => (b as JsonObject).type === 'section')
      .map((b) => mrkdwnToText(String(((b as JsonObject).text as JsonObject | undefined)?.text ?? ''), ctx));
    print([`┌ form: ${title}  (${CANCEL_WORD} closes it)`, ...intro.map((l) => `│ ${l}`)].join('\n'));
    const answers = new Map<string, JsonObject>();
    const check = opts.checkAnswer;
    const io: FormIO = { ask: (p: string) => reader.read(p, { forget: true }), say: print, ...(check ? { check: (f, state, given) => check(v, f, state, given) } : {}) };
    const submit = (v.submit as { text?: string } | undefined)?.text ?? 'Submit';
    let ok = await walkFields(fields, answers, io, ctx);
    while (ok) {
      print(`└ ${submit}`);
      const ack = (await dispatch(viewSubmissionBody(v, stateValues(fields, answers)))) as JsonObject | undefined;
      if (ack?.response_action === 'errors' && ack.errors && typeof ack.errors === 'object') {
        // As in Slack: the form stays open, its refused fields marked; only those are asked again.
        const errors = ack.errors as Record<string, string>;
        const again = fields.filter((f) => f.blockId in errors);
        print(`┌ form: ${title} — ${again.length ? `the bot asks again for ${again.map((f) => f.label).join(', ')}` : 'the bot refused it'}`);
        if (!again.length) print(Object.entries(errors).map(([k, m]) => `│ ! ${k}: ${mrkdwnToText(String(m), ctx)}`).join('\n'));
        ok = await walkFields(again.length ? again : fields, answers, io, ctx, errors);
        continue;
      }
      if (ack?.response_action === 'update' && ack.view) model.updateView(view.id, ack.view as JsonObject);
      else if (ack?.response_action === 'push' && ack.view) model.openView(ack.view as JsonObject);
      else model.closeView(view.id);
      return;
    }
    model.closeView(view.id);
    print('└ Form closed; nothing was sent.');
  }

  async function handle(line: string): Promise<'exit' | void> {
    const text = line.trim();
    if (!text) return;
    if (text === 'exit' || text === 'quit') return 'exit';
    if (text === 'help' || text === '?') return print(SHELL_HELP);
    if (text === 'home') return void (await dispatch(appHomeOpenedBody()));
    const pasted = /^(?:shortcut\s+([\s\S]+)|(?:link\s+)?(https?:\/\/\S+(?:\s+https?:\/\/\S+)*))$/i.exec(text);
    if (pasted?.[1]) return void (await dispatch(messageShortcutBody(ACT_CALLBACK, pasted[1], opts.slack.responseUrl(undefined, current.id), current, model.nextTs())));
    if (pasted?.[2]) return pasteLinks(pasted[2].split(/\s+/));
    if (text === 'step' || text === 'steps') return print(stepsHelp());
    if (text.startsWith('step ')) return runStep(text.slice('step '.length));
    if (/^\d+$/.test(text)) return press(Number(text));
    if (text === COMMAND || text.startsWith(`${COMMAND} `)) {
      await dispatch(slashCommandBody(COMMAND, text.slice(COMMAND.length).trim(), opts.slack.responseUrl(undefined, current.id), current));
      return;
    }
    const switchTo = /^channels?(?:\s+(\S+))?$/.exec(text);
    if (switchTo) return switchChannel(switchTo[1]);
    if (text === CANCEL_WORD) return print('There is no form open.');
    print(text.startsWith('/') ? `Only ${COMMAND} works here. Type help.` : `Type ${COMMAND} ${text.replace(/^cloud\s+/i, '')} to run it as a command, or help.`);
  }

  /** The person posts the links; Slack sends link_shared for them; a preview, if any, is printed as it comes. */
  async function pasteLinks(urls: string[]): Promise<void> {
    const ts = model.nextTs();
    model.pasted.set(ts, { channel: current.id, urls: new Set(urls) });
    const before = model.unfurled;
    await dispatch(linkSharedBody(urls, current, ts));
    if (model.unfurled === before) print(`No preview: not a panel page or worker address of a server, worker or security group you may read in #${current.name} (README › Link unfurls).`);
  }

  /** A workflow step with named inputs, from this channel and person unless given; its end is printed when it comes. */
  async function runStep(rest: string): Promise<void> {
    const line = parseStepLine(rest, { channel: current.id, requester: SHELL_USER.id });
    if (!line.ok) return print(line.message);
    const executionId = `Fx${Math.random().toString(36).slice(2, 12).toUpperCase()}`;
    model.steps.set(executionId, 'running');
    print(`→ workflow step ${executionId} (${line.step.title}) started`);
    await dispatch(functionExecutedBody(line.step.callbackId, line.step.title, line.inputs, executionId));
  }

  function switchChannel(query: string | undefined): void {
    if (!query) return print(channelListText(channels, current));
    const found = findChannel(channels, query);
    if (!found) return print(`There is no channel ${query} here. Type channel to list them.`);
    current = found;
    print(switchedText(current));
  }

  async function run(): Promise<void> {
    for (;;) {
      const form = forms.shift();
      if (form) {
        const view = model.views.get(form);
        if (view) {
          inForm = true;
          await walkForm(view).finally(() => (inForm = false));
        }
        continue;
      }
      reader.showPrompt(prompt());
      const arrived = new Promise<'form'>((resolve) => (formArrived = () => resolve('form')));
      const first = await Promise.race([reader.wait().then(() => 'line' as const), arrived]);
      formArrived = undefined;
      if (first === 'form') continue;
      const line = reader.take();
      if (line === undefined) break; // Ctrl-D or the end of piped input
      // Piped input is not echoed by a terminal: show each command after its prompt, as typed.
      if (!opts.terminal && line.trim()) print(`${prompt()}${line.trim()}`);
      try {
        if ((await handle(line)) === 'exit') break;
      } catch (e) {
        print(`! ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    reader.close();
  }

  return { print, log, run, close: () => reader.close() };
}
