import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { STEPS } from '../../src/operations/steps.js';
import { catalog } from '../../src/operations/index.js';

const manifestUrl = new URL('../../manifest.yml', import.meta.url);
// shared/ sits beside the repository, in CI too.
const schemaUrl = new URL('../fixtures/slack/manifest.schema.json', import.meta.url);

interface Manifest {
  display_information: { name: string };
  features: {
    bot_user: { display_name: string };
    slash_commands: Array<{ command: string; description: string; usage_hint?: string; should_escape?: boolean; url?: string }>;
    shortcuts?: Array<{ name: string; type: string; callback_id: string; description: string }>;
    unfurl_domains?: string[];
  };
  oauth_config: { scopes: { bot: string[]; user?: string[] } };
  settings: {
    interactivity: { is_enabled: boolean; request_url?: string; message_menu_options_url?: string };
    socket_mode_enabled: boolean;
    org_deploy_enabled: boolean;
    token_rotation_enabled: boolean;
    event_subscriptions?: unknown;
  };
}

function load(): Manifest {
  return parse(readFileSync(manifestUrl, 'utf8')) as Manifest;
}

function validator() {
  const schema = JSON.parse(readFileSync(schemaUrl, 'utf8')) as Record<string, unknown>;
  // The schema is draft-07 (Ajv's default draft). strict: false tolerates its non-standard
  // `regex` keyword; the one format it uses is checked loosely here.
  expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addFormat('uri', /^[a-z][a-z0-9+.-]*:\S+$/i);
  return ajv.compile(schema);
}

describe('manifest.yml', () => {
  it('is valid against Slack’s app manifest schema', () => {
    const validate = validator();
    const ok = validate(load());
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('the schema check is not vacuous: a broken manifest is rejected', () => {
    const validate = validator();
    const broken = structuredClone(load()) as unknown as Record<string, Record<string, unknown>>;
    (broken.features as Record<string, unknown>).slash_commands = [{ command: 'cloud', description: '' }];
    broken.settings!.surprise = true;
    expect(validate(broken)).toBe(false);
    const paths = (validate.errors ?? []).map((e) => e.instancePath);
    expect(paths).toContain('/features/slash_commands/0/command');
    expect(paths).toContain('/settings');
  });

  it('declares /cloud with a description and a usage hint', () => {
    const { features } = load();
    expect(features.slash_commands).toHaveLength(1);
    const cloud = features.slash_commands[0]!;
    expect(cloud.command).toBe('/cloud');
    expect(cloud.description.length).toBeGreaterThan(0);
    expect(cloud.usage_hint).toMatch(/help/);
    expect(cloud.should_escape).toBe(false);
    expect(features.bot_user.display_name).toBe('cloudbot');
  });

  it('asks for exactly the bot scopes the bot uses, and no user scopes', () => {
    const { oauth_config } = load();
    expect([...oauth_config.scopes.bot].sort()).toEqual(['channels:history', 'chat:write', 'commands', 'groups:history', 'links:read', 'links:write', 'usergroups:read', 'users:read']);
    expect(oauth_config.scopes.user).toBeUndefined();
  });

  it('declares the Act on this message shortcut and the unfurl domains with the link_shared event (issue 23)', async () => {
    const { features, settings } = load();
    const { ACT_CALLBACK } = await import('../../src/views/act-on-this-views.js');
    expect(features.shortcuts).toEqual([expect.objectContaining({ name: 'Act on this', type: 'message', callback_id: ACT_CALLBACK })]);
    expect(features.unfurl_domains?.length).toBeGreaterThan(0);
    expect((settings.event_subscriptions as { bot_events: string[] }).bot_events).toContain('link_shared');
  });

  it('enables interactivity and Socket Mode, with HTTP request URLs on /slack/events', () => {
    const { settings, features } = load();
    expect(settings.interactivity.is_enabled).toBe(true);
    expect(settings.socket_mode_enabled).toBe(true);
    // Custom workflow steps need an org-ready app (issue 23).
    expect(settings.org_deploy_enabled).toBe(true);
    expect(settings.token_rotation_enabled).toBe(false);
    const urls = [settings.interactivity.request_url, features.slash_commands[0]!.url];
    for (const url of urls) expect(url).toMatch(/^https:\/\/[^/]+\/slack\/events$/);
    // No menu loads its options from the bot (no external_select), so no options URL (issue 14).
    expect(settings.interactivity.message_menu_options_url).toBeUndefined();
  });

  it('declares exactly the catalog’s workflow steps, typed, titled and hinted, and subscribes to function_executed', () => {
    const m = parse(readFileSync(manifestUrl, 'utf8')) as {
      functions: Record<string, { title: string; description: string; input_parameters: Record<string, Record<string, unknown>>; output_parameters: Record<string, Record<string, unknown>> }>;
      settings: { event_subscriptions: { bot_events: string[] } };
    };
    expect(m.settings.event_subscriptions.bot_events).toContain('function_executed');
    expect(Object.keys(m.functions).sort()).toEqual(STEPS.map((s) => s.callbackId).sort());
    for (const step of STEPS) {
      const fn = m.functions[step.callbackId]!;
      expect(fn.title).toBe(step.title);
      expect(catalog.byId(step.opId), step.opId).toBeDefined();
      for (const [declared, params, hintKey] of [[fn.input_parameters, step.inputs, 'hint'], [fn.output_parameters, step.outputs, 'description']] as const) {
        expect(Object.keys(declared)).toEqual(params.map((p) => p.name));
        for (const p of params) {
          expect(declared[p.name], `${step.callbackId}.${p.name}`).toEqual({ type: p.type, title: p.title, [hintKey]: p.hint, is_required: !p.optional, name: p.name });
          expect(['slack#/types/user_id', 'slack#/types/channel_id', 'string', 'integer']).toContain(p.type);
        }
      }
      // Every input fills an argument the operation has (channel and requester are the step's own).
      const op = catalog.byId(step.opId)!;
      for (const p of step.inputs) if (p.arg) expect(Object.keys(op.args), `${step.callbackId}.${p.name}`).toContain(p.arg);
    }
  });
});
