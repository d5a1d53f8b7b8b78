/**
 * Turns what the bot did through the local Web API into text as it happens: new messages,
 * thread replies under their parent's label, edits "(updated)" (an edit that changes nothing
 * visible is not printed again), ephemeral replies "(only you)", and modals — a form with
 * fields is handed to the shell to walk; a modal with only text is printed.
 */
import type { ButtonRegistry, Surface } from './button-registry.js';
import { formFields } from './form-walk.js';
import type { LocalEvent, LocalModel, ShellView } from './local-model.js';
import { terminalSafe } from './mrkdwn-text.js';
import { unescapeEntities } from '../views/mrkdwn.js';
import { compactUpdate, entryLines, formatEntry, messageLabel, renderEntry, type ButtonRef, type Entry, type TextContext } from './render-text.js';

export interface EventPrinterDeps {
  model: LocalModel;
  registry: ButtonRegistry;
  ctx: TextContext;
  print(text: string): void;
  /** A modal with input fields opened or changed: the shell walks it. */
  onForm(view: ShellView): void;
}

export function attachEventPrinter(deps: EventPrinterDeps): void {
  const { model, registry, ctx } = deps;
  /** What each message last looked like: an edit shows what changed; one nobody could see is skipped. */
  const shown = new Map<string, string[]>();
  const channelName = (id: string) => ctx.channels[id] ?? id;
  /** Numbers the surface's buttons and tells the registry whether it showed any (the newest takes numbers). */
  const counting = (surface: Surface) => {
    let buttons = 0;
    return { numberFor: (b: ButtonRef) => (buttons++, registry.numberFor(surface, b)), done: () => registry.printed(surface, buttons > 0) };
  };
  const render = (entry: Entry, surface: Surface) => {
    const c = counting(surface);
    const text = renderEntry(entry, ctx, c.numberFor);
    c.done();
    return text;
  };

  function onEvent(e: LocalEvent): void {
    switch (e.type) {
      case 'message':
      case 'update': {
        const m = e.message;
        const surface: Surface = { kind: 'message', ts: m.ts };
        const c = counting(surface);
        const lines = entryLines({ heading: { kind: 'ephemeral' }, text: m.text, blocks: m.blocks }, ctx, c.numberFor);
        const before = shown.get(m.ts);
        shown.set(m.ts, lines);
        if (e.type === 'update' && before?.join('\n') === lines.join('\n')) return;
        c.done();
        const parent = m.threadTs ? model.messages.get(m.threadTs) : undefined;
        const heading: Entry['heading'] = m.threadTs
          ? { kind: 'reply', parentLabel: parent ? messageLabel(parent.text, ctx) : m.threadTs, broadcast: e.type === 'message' && e.broadcast }
          : { kind: 'message', channel: channelName(m.channel), updated: e.type === 'update' };
        deps.print(formatEntry(heading, e.type === 'update' && before ? compactUpdate(before, lines) : lines, ctx));
        return;
      }
      case 'unfurl': {
        const m = e.message;
        deps.print(render({ heading: { kind: 'unfurl', channel: channelName(m.channel), url: e.url }, text: m.text, blocks: m.blocks }, { kind: 'message', ts: m.ts }));
        return;
      }
      case 'delete':
        registry.gone({ kind: 'message', ts: e.message.ts });
        deps.print(`cloudbot deleted its message “${messageLabel(e.message.text, ctx)}”.`);
        return;
      case 'ephemeral': {
        const x = e.ephemeral;
        deps.print(render({ heading: { kind: 'ephemeral', updated: e.replaced }, text: x.text, blocks: x.blocks }, { kind: 'ephemeral', ts: x.ts }));
        return;
      }
      case 'ephemeral-delete':
        registry.gone({ kind: 'ephemeral', ts: e.ephemeral.ts });
        deps.print('cloudbot removed a reply that only you could see.');
        return;
      case 'step': {
        const what = `workflow step ${e.executionId}`;
        if (e.error !== undefined) return deps.print(`✗ ${what} failed: ${terminalSafe(unescapeEntities(e.error))}`);
        const outputs = Object.entries(e.outputs ?? {}).map(([k, v]) => `${k}=${terminalSafe(String(v))}`);
        return deps.print(`✓ ${what} completed${outputs.length ? `: ${outputs.join(' ')}` : ''}`);
      }
      case 'view': {
        const v = e.view.view;
        if (formFields(v).length && v.submit) {
          deps.onForm(e.view);
          return;
        }
        // A Home tab has no title of its own; Slack shows the app's name and "Home".
        const home = v.type === 'home';
        const title = home ? 'Home' : typeof v.title === 'object' && v.title ? String((v.title as { text?: unknown }).text ?? '') : '';
        const blocks = Array.isArray(v.blocks) ? v.blocks : [];
        deps.print(render({ heading: { kind: 'view', title, ...(home ? { home } : {}) }, text: '', blocks }, { kind: 'ephemeral', ts: e.view.id }));
      }
    }
  }

  model.onEvent(onEvent);
}
