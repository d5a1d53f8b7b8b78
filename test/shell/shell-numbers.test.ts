/**
 * Issue 14, the shell with a fake app behind it: button numbers belong to the newest message
 * that shows buttons (an older one's number is refused), Ctrl-C in a form leaves no prompt
 * behind, and a log line waits until the reply in progress is printed.
 */
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalModel, type JsonObject } from '../../src/shell/local-model.js';
import type { LocalSlack } from '../../src/shell/local-slack.js';
import { createShell, type Shell } from '../../src/shell/shell.js';
import type { ShellReceiver } from '../../src/shell/shell-receiver.js';
import { waitFor } from '../rig/wait-for.js';

const CHANNEL = 'CSHELL0001';
const buttons = (prefix: string, labels: string[]) => [
  { type: 'section', block_id: 's', text: { type: 'mrkdwn', text: `${prefix} message` } },
  { type: 'actions', block_id: 'a', elements: labels.map((l, i) => ({ type: 'button', action_id: `${prefix}-${i}`, value: l, text: { type: 'plain_text', text: l } })) },
];

interface Fake {
  shell: Shell;
  type(text: string): void;
  out(): string;
  clicks: string[];
  waitOut(pattern: RegExp, from?: number): Promise<unknown>;
  input: PassThrough;
}

/** `handlers[text]` answers `/cloud text`; clicks are recorded by action_id. */
function startFake(handlers: Record<string, (model: LocalModel, shell: Shell) => Promise<void> | void>, terminal = false): Fake {
  const input = new PassThrough();
  const output = new PassThrough();
  let out = '';
  output.on('data', (d) => (out += String(d)));
  const model = new LocalModel(CHANNEL);
  const clicks: string[] = [];
  let shell!: Shell;
  const receiver = {
    deliver(body: JsonObject) {
      const work = (async () => {
        if (typeof body.command === 'string') await handlers[String(body.text)]?.(model, shell);
        else if (body.type === 'block_actions') clicks.push(String(((body.actions as JsonObject[])[0] as JsonObject).action_id));
      })();
      return { acked: work.then(() => undefined), done: work };
    },
  } as unknown as ShellReceiver;
  const slack = { model, apiUrl: '', responseUrl: () => 'r', close: async () => undefined } as LocalSlack;
  shell = createShell({ input, output, terminal, receiver, slack });
  void shell.run();
  return {
    shell,
    input,
    type: (text) => void input.write(`${text}\n`),
    out: () => out,
    clicks,
    waitOut: (pattern, from = 0) => waitFor(() => pattern.exec(out.slice(from)) ?? undefined, { timeoutMs: 3000, intervalMs: 5, message: `never matched ${pattern}:\n${out.slice(from)}` }),
  };
}

let fake: Fake | undefined;
afterEach(() => {
  fake?.shell.close();
  fake = undefined;
});

describe('button numbers', () => {
  it('belong to the newest message with buttons: an older message’s number is refused, the newest’s pressed', async () => {
    fake = startFake({
      first: (m) => void m.post({ channel: CHANNEL, text: 'first', blocks: buttons('first', ['← Previous', 'Next →']) }),
      second: (m) => void m.post({ channel: CHANNEL, text: 'second', blocks: buttons('second', ['Confirm', 'Cancel']) }),
    });
    fake.type('/cloud first');
    const first = (await fake.waitOut(/\[(\d+)\] ← Previous {2}\[(\d+)\] Next →/)) as RegExpExecArray;
    fake.type('/cloud second');
    const second = (await fake.waitOut(/\[(\d+)\] Confirm {2}\[(\d+)\] Cancel/)) as RegExpExecArray;
    const at = fake.out().length;
    fake.type(first[1]!);
    await fake.waitOut(/is on an earlier message/, at);
    expect(fake.out().slice(at)).toContain(`Button [${first[1]}] is on an earlier message`);
    expect(fake.out().slice(at)).toContain(`[${second[1]}] Confirm  [${second[2]}] Cancel`);
    fake.type(second[2]!);
    await fake.waitOut(new RegExp(`→ pressed \\[${second[2]}\\] Cancel`), at);
    await waitFor(() => fake!.clicks.length > 0 || undefined, { timeoutMs: 1000, intervalMs: 5 });
    expect(fake.clicks).toEqual(['second-1']);
  });

  it('of a message that lost its buttons are refused, and the older message with buttons takes numbers again', async () => {
    let ts = '';
    fake = startFake({
      first: (m) => void m.post({ channel: CHANNEL, text: 'first', blocks: buttons('first', ['Next →']) }),
      second: (m) => void (ts = m.post({ channel: CHANNEL, text: 'second', blocks: buttons('second', ['Confirm']) }).ts),
      done: (m) => void m.update(ts, 'second', [{ type: 'section', block_id: 's', text: { type: 'mrkdwn', text: 'second — done' } }]),
    });
    fake.type('/cloud first');
    const first = (await fake.waitOut(/\[(\d+)\] Next →/)) as RegExpExecArray;
    fake.type('/cloud second');
    const second = (await fake.waitOut(/\[(\d+)\] Confirm/)) as RegExpExecArray;
    fake.type('/cloud done');
    await fake.waitOut(/second — done/);
    const at = fake.out().length;
    fake.type(second[1]!);
    await fake.waitOut(/no longer there/, at);
    fake.type(first[1]!);
    await fake.waitOut(/→ pressed \[\d+\] Next →/, at);
  });
});

describe('Ctrl-C in a form', () => {
  it('closes the form and leaves no stray form prompt', async () => {
    const form = {
      type: 'modal',
      title: { type: 'plain_text', text: 'Test form' },
      submit: { type: 'plain_text', text: 'Go' },
      blocks: [{ type: 'input', block_id: 'name', label: { type: 'plain_text', text: 'Name' }, element: { type: 'plain_text_input', action_id: 'name' } }],
    };
    fake = startFake({ form: (m) => void m.openView(form) }, true);
    fake.type('/cloud form');
    await fake.waitOut(/│ name> /);
    const at = fake.out().length;
    fake.input.write('\x03');
    await fake.waitOut(/Form closed; nothing was sent\.\n[\s\S]*cloud> /, at);
    const after = fake.out().slice(fake.out().lastIndexOf('Form closed'));
    expect(after).not.toContain('│ name>');
  });
});

describe('log lines', () => {
  it('wait until the reply in progress is printed', async () => {
    fake = startFake({
      two: async (m, shell) => {
        m.post({ channel: CHANNEL, text: 'part one', blocks: [] });
        shell.log('[warn] something slow');
        await new Promise((resolve) => setImmediate(resolve));
        m.postEphemeral({ channel: CHANNEL, text: 'part two', blocks: [] });
      },
    });
    fake.type('/cloud two');
    await fake.waitOut(/\[warn\] something slow/);
    const out = fake.out();
    expect(out.indexOf('part two')).toBeGreaterThan(out.indexOf('part one'));
    expect(out.indexOf('[warn] something slow')).toBeGreaterThan(out.indexOf('part two'));
  });

  it('are printed at once when no reply is in progress', async () => {
    fake = startFake({});
    fake.shell.log('[warn] idle');
    expect(fake.out()).toContain('[warn] idle');
  });
});
