/**
 * Lines in, text out, over node:readline with injected streams. Lines typed while the shell
 * is busy wait in a queue; `wait()` tells that one is there without taking it, so the shell
 * can race it against a form arriving. Output printed while a prompt is shown (a watch's
 * thread update) goes above the prompt, and the prompt with what was typed is redrawn.
 */
import { createInterface, clearLine, cursorTo, type Interface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { terminalSafe } from './mrkdwn-text.js';

export class LineReader {
  private readonly rl: Interface;
  private readonly queue: string[] = [];
  private ended = false;
  private wakers: (() => void)[] = [];
  private prompting = false;
  /** Ctrl-C: the shell decides (cancel a form, or quit). */
  onInterrupt: () => void = () => this.close();

  constructor(
    input: Readable,
    private readonly output: Writable,
    private readonly terminal: boolean,
  ) {
    this.rl = createInterface({ input, output, terminal, historySize: terminal ? 200 : 0 });
    this.rl.on('line', (line) => {
      this.prompting = false;
      this.queue.push(line);
      this.wake();
    });
    this.rl.on('close', () => {
      this.ended = true;
      this.wake();
    });
    this.rl.on('SIGINT', () => this.onInterrupt());
  }

  private wake(): void {
    const wakers = this.wakers;
    this.wakers = [];
    for (const w of wakers) w();
  }

  /** Resolves once a line is queued or input has ended. */
  wait(): Promise<void> {
    if (this.queue.length || this.ended) return Promise.resolve();
    return new Promise((resolve) => this.wakers.push(resolve));
  }

  /** The next queued line; undefined when there is none (input ended, or nothing typed yet). */
  take(): string | undefined {
    return this.queue.shift();
  }

  get done(): boolean {
    return this.ended && this.queue.length === 0;
  }

  /**
   * Shows the prompt (on a terminal) and resolves with the next line, or undefined at the end.
   * `forget`: keep the answer out of the arrow-key history (a form's answers may be passwords).
   */
  async read(prompt: string, opts: { forget?: boolean } = {}): Promise<string | undefined> {
    this.showPrompt(prompt);
    await this.wait();
    const line = this.take();
    const history = (this.rl as unknown as { history?: string[] }).history;
    if (opts.forget && line && history?.[0] === line) history.shift();
    return line;
  }

  showPrompt(prompt: string): void {
    if (!this.terminal || this.ended || this.queue.length) return;
    this.rl.setPrompt(terminalSafe(prompt));
    this.rl.prompt(true);
    this.prompting = true;
  }

  /** Writes text on its own lines, keeping a shown prompt (and what was typed) below it. No control but our styles gets through. */
  print(raw: string): void {
    const text = terminalSafe(raw);
    if (this.terminal && this.prompting) {
      clearLine(this.output, 0);
      cursorTo(this.output, 0);
      this.output.write(`${text}\n`);
      this.rl.prompt(true);
      return;
    }
    this.output.write(`${text}\n`);
  }

  /** Pushes a line as if typed (Ctrl-C inside a form types the cancel word). */
  inject(line: string): void {
    // The prompt shown is answered: it must not be drawn again under what is printed next.
    if (this.terminal && this.prompting) this.output.write('\n');
    this.prompting = false;
    this.queue.push(line);
    this.wake();
  }

  close(): void {
    if (this.terminal && this.prompting) this.output.write('\n');
    this.prompting = false;
    this.rl.close();
  }
}
