/**
 * manifest.yml against the listeners the bot registers (src/slack/app.ts `registerListeners`):
 * a slash command, message shortcut or bot event the manifest declares that no listener
 * handles would reach the bot and go unanswered, and one the bot handles that the manifest
 * leaves out would never arrive. Both directions are checked on the routes themselves
 * (listener-routes.ts), collected from the real registration.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import type { App } from '@slack/bolt';
import type { ListenerRoutes } from '../../src/slack/listener-routes.js';

const routed = vi.hoisted(() => ({ commands: [] as string[], shortcuts: [] as string[], events: [] as string[], actions: 0, views: 0 }));

vi.mock('../../src/slack/listener-routes.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../src/slack/listener-routes.js')>();
  const recorder: ListenerRoutes = {
    command: (name) => void routed.commands.push(name),
    messageShortcut: (callbackId) => void routed.shortcuts.push(callbackId),
    action: () => void routed.actions++,
    view: () => void routed.views++,
    event: (type) => void routed.events.push(type),
  };
  return { ...real, routeListeners: (_app: App, register: (routes: ListenerRoutes) => void) => register(recorder) };
});

interface Manifest {
  features: { slash_commands: { command: string }[]; shortcuts?: { type: string; callback_id: string }[] };
  settings: { event_subscriptions: { bot_events: string[] }; interactivity: { is_enabled: boolean } };
}

describe('manifest.yml and the registered listeners', () => {
  it('declares exactly the slash commands, message shortcuts and bot events the bot listens for', async () => {
    const { registerListeners } = await import('../../src/slack/app.js');
    const app = { use: () => {}, error: () => {} } as unknown as Parameters<typeof registerListeners>[0];
    // Registration reads only these; the listeners themselves never run here.
    const deps = { core: { step: async () => ({ kind: 'duplicate' }) }, clock: { now: () => 0, sleep: async () => {} }, logger: { info: () => {}, warn: () => {} } };
    registerListeners(app, deps as unknown as Parameters<typeof registerListeners>[1]);

    const m = parse(readFileSync(new URL('../../manifest.yml', import.meta.url), 'utf8')) as Manifest;
    expect([...routed.commands].sort()).toEqual(m.features.slash_commands.map((c) => c.command).sort());
    expect([...routed.shortcuts].sort()).toEqual((m.features.shortcuts ?? []).filter((s) => s.type === 'message').map((s) => s.callback_id).sort());
    expect([...routed.events].sort()).toEqual([...m.settings.event_subscriptions.bot_events].sort());
    // Buttons, forms and the shortcut arrive as interactivity: it must be on for any of them.
    expect(routed.actions + routed.views + routed.shortcuts.length).toBeGreaterThan(0);
    expect(m.settings.interactivity.is_enabled).toBe(true);
  });
});
