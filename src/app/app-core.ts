/**
 * The application core: the one object every surface calls — the slash command, clicks and
 * forms (slack/), the local shell (through the same listeners), and the surfaces to come
 * (workflow steps, shortcuts, unfurls, schedules). Each method takes what the person did,
 * already read off the surface's payload, and answers as data; the surface acks, delivers
 * the answer its own way, and decides nothing about access, parsing or the change flow.
 * Built once, by the composition root (src/runtime.ts), over the services it makes.
 */
import type { AnyOperation } from '../operations/types.js';
import type { HomeData } from '../views/home-views.js';
import { handleAlertClick, type AlertClick, type AlertClickAnswer, type AlertClickDeps } from './alert-clicks.js';
import { handleChangeClick, type ChangeClick, type ChangeClickAnswer } from './change-clicks.js';
import { confirmTyped, type TypedConfirmAnswer, type TypedConfirmDeps } from './confirm-typed.js';
import { homeButton, homeData, type HomeDataDeps } from './home-data.js';
import { runButton, type ButtonAnswer, type ButtonDeps } from './run-button.js';
import { runCommand, type CommandAnswer, type CommandCoreDeps, type CommandInput } from './run-command.js';
import type { Actor } from './run-operation.js';
import { submitForm, type FormAnswer, type FormDeps, type FormInput } from './submit-form.js';
import { keepWatching, type KeepWatchingAnswer, type WatchCommandDeps } from './watch-commands.js';
import { listActions, type ActDeps, type ActListing } from './act-on-this.js';
import { unfurlLinks, type UnfurlCard, type UnfurlDeps } from './unfurl-links.js';
import { runStep, type StepDeps, type StepExecution, type StepStart } from './run-step.js';

/** Everything the core runs on: the services src/runtime.ts builds (no Slack transport among them). */
export type AppCoreDeps = CommandCoreDeps & ButtonDeps & FormDeps & TypedConfirmDeps & AlertClickDeps & HomeDataDeps & WatchCommandDeps & ActDeps & UnfurlDeps;

export interface AppCore {
  /** A typed command (`/cloud …` without the `/cloud`). `naming` hears the command's name once parsed, for wording a failure. */
  command(input: CommandInput, naming?: (what: string) => void): Promise<CommandAnswer>;
  /** A button whose value names a read; `accepts` says which reads this surface's buttons draw. */
  button(value: string | undefined, actor: Actor, accepts: (op: AnyOperation) => boolean): ButtonAnswer;
  /** Previous/Next of a paginated list: the same read, another page. */
  pageButton(value: string | undefined, actor: Actor): ButtonAnswer;
  /** A button of the Home tab (no channel): only the reads the Home tab draws. */
  homeButton(value: string | undefined, userId: string): ButtonAnswer;
  /** A change form submitted: errors for its fields, or the change started. */
  submitForm(input: FormInput): Promise<FormAnswer>;
  /** The "type the hostname" form of a destructive change submitted. */
  confirmTyped(input: { recordId: string; typed: string; userId: string }): Promise<TypedConfirmAnswer>;
  /** Confirm, Cancel or Retry sync on a change's status message. */
  changeClick(click: ChangeClick): Promise<ChangeClickAnswer>;
  /** A button of an alert (a read, Watch, Snooze), checked against the alert it was drawn on. */
  alertClick(click: AlertClick): Promise<AlertClickAnswer>;
  /** "Keep watching" on a watch that reached its deadline, clicked in `channelId`. */
  keepWatching(click: { channelId: string; userId: string; watchId: string }): Promise<KeepWatchingAnswer>;
  /** What this person's Home tab shows, read now. */
  homeData(userId: string): Promise<HomeData>;
  /** "Act on this" on a message: what it names that the bot knows, and what this person may run on each here. */
  actOnThis(input: { userId: string; channelId: string; text: string }): Promise<ActListing>;
  /** Links shared in a channel: a read-tier card for each this person may read there. */
  unfurl(input: { userId: string; channelId: string; teamId?: string; urls: readonly string[] }): Promise<UnfurlCard[]>;
  /**
   * A Workflow Builder step reached (function_executed): started once, then completed through
   * the chat interface when its change has finished (the step driver moves it on). Absent
   * where the bot offers no steps.
   */
  step?(exec: StepExecution): Promise<StepStart>;
}

export function createAppCore(deps: AppCoreDeps, parts: { steps?: StepDeps } = {}): AppCore {
  const { steps } = parts;
  return {
    command: (input, naming) => runCommand(deps, input, naming),
    button: (value, actor, accepts) => runButton(deps, value, actor, accepts),
    pageButton: (value, actor) => runButton(deps, value, actor, (op) => !!op.pageArg),
    homeButton: (value, userId) => homeButton(deps, value, userId),
    submitForm: (input) => submitForm(deps, input),
    confirmTyped: (input) => confirmTyped(deps, input),
    changeClick: (click) => handleChangeClick(deps, click),
    alertClick: (click) => handleAlertClick(deps, click),
    keepWatching: ({ channelId, userId, watchId }) => keepWatching(deps, channelId, userId, watchId),
    homeData: (userId) => homeData(deps, userId),
    actOnThis: (input) => listActions(deps, input),
    unfurl: (input) => unfurlLinks(deps, input),
    ...(steps ? { step: (exec: StepExecution) => runStep(steps, exec) } : {}),
  };
}
