/**
 * One Bolt listener per kind of request — the command, the message shortcut, block actions,
 * view submissions, events — each handing the request to the route its id names.
 *
 * Why not a Bolt listener per button: Bolt runs every listener's middleware chain for every
 * request, a slash command's included (`processEvent` maps over all listeners, copying each
 * chain and spreading the listener arguments for each middleware). Measured under the bench's
 * load (bench/ack-latency.ts's world, bare Bolt only acking), 13 listeners more took its CPU
 * per command from 0.29 to 0.37 ms; the bot had 14 in all. Matching is unchanged: Bolt still
 * sees only the ids and callback ids routed here (one pattern each), so anything else stays
 * unhandled as before.
 */
import type {
  AllMiddlewareArgs,
  App,
  BlockButtonAction,
  MessageShortcut,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlackEventMiddlewareArgs,
  SlackShortcutMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import { escapeRegExp } from '../regexp.js';

type Args<T> = T & AllMiddlewareArgs;
export type CommandListener = (args: Args<SlackCommandMiddlewareArgs>) => Promise<void>;
export type ShortcutListener = (args: Args<SlackShortcutMiddlewareArgs<MessageShortcut>>) => Promise<void>;
export type ButtonListener = (args: Args<SlackActionMiddlewareArgs<BlockButtonAction>>) => Promise<void>;
export type ViewListener = (args: Args<SlackViewMiddlewareArgs<ViewSubmitAction>>) => Promise<void>;
/** The events the bot subscribes to (manifest.yml `event_subscriptions.bot_events`). */
export type RoutedEvent = 'app_home_opened' | 'link_shared' | 'function_executed';
export type EventListener<T extends RoutedEvent> = (args: Args<SlackEventMiddlewareArgs<T>>) => Promise<void>;

export interface ListenerRoutes {
  command(name: string, listener: CommandListener): void;
  messageShortcut(callbackId: string, listener: ShortcutListener): void;
  /** A button, by its exact action_id or an anchored pattern (no flags). */
  action(actionId: string | RegExp, listener: ButtonListener): void;
  view(callbackId: string, listener: ViewListener): void;
  event<T extends RoutedEvent>(type: T, listener: EventListener<T>): void;
}

interface Route<L> {
  id: string | RegExp;
  source: string;
  matches: (id: string) => boolean;
  listener: L;
}

function routeOf<L>(id: string | RegExp, listener: L): Route<L> {
  if (typeof id === 'string') return { id, source: `^${escapeRegExp(id)}$`, matches: (x) => x === id, listener };
  if (id.flags !== '') throw new Error(`a routed pattern takes no flags: /${id.source}/${id.flags}`);
  return { id, source: id.source, matches: (x) => id.test(x), listener };
}
/** What Bolt matches: the one route's own id, else one pattern for them all. */
const unionOf = (routes: Route<unknown>[]) => (routes.length === 1 ? routes[0]!.id : new RegExp(routes.map((r) => `(?:${r.source})`).join('|')));

/** Collects the routes `register` declares, then gives Bolt one listener per kind. */
export function routeListeners(app: App, register: (routes: ListenerRoutes) => void): void {
  const commands: Route<CommandListener>[] = [];
  const shortcuts: Route<ShortcutListener>[] = [];
  const actions: Route<ButtonListener>[] = [];
  const views: Route<ViewListener>[] = [];
  const events: Route<EventListener<RoutedEvent>>[] = [];
  register({
    command: (name, listener) => commands.push(routeOf(name, listener)),
    messageShortcut: (callbackId, listener) => shortcuts.push(routeOf(callbackId, listener)),
    action: (actionId, listener) => actions.push(routeOf(actionId, listener)),
    view: (callbackId, listener) => views.push(routeOf(callbackId, listener)),
    event: (type, listener) => events.push(routeOf(type, listener as unknown as EventListener<RoutedEvent>)),
  });
  const first = <L>(routes: Route<L>[], id: string) => routes.find((r) => r.matches(id))?.listener;

  if (commands.length > 0) app.command(unionOf(commands), async (args) => first(commands, args.command.command)?.(args));
  if (shortcuts.length > 0) {
    app.shortcut<MessageShortcut>({ type: 'message_action', callback_id: unionOf(shortcuts) }, async (args) => first(shortcuts, args.shortcut.callback_id)?.(args));
  }
  if (actions.length > 0) app.action<BlockButtonAction>(unionOf(actions), async (args) => first(actions, args.action.action_id)?.(args));
  if (views.length > 0) app.view<ViewSubmitAction>(unionOf(views), async (args) => first(views, args.view.callback_id)?.(args));
  if (events.length > 0) {
    app.event(unionOf(events) as RegExp, async (args) => first(events, args.event.type)?.(args as unknown as Args<SlackEventMiddlewareArgs<RoutedEvent>>));
  }
}
