import { afterEach, describe, expect, it } from 'vitest';
import { createFakeSlack, type FakeSlack } from '../rig/fake-slack.js';
import { triggerId } from '../rig/ids.js';
import { slackError, webClient } from './web-client.js';

const modal = (title = 'Reinstall server') => ({
  type: 'modal' as const,
  callback_id: 'server_reinstall',
  private_metadata: '{"server":42}',
  title: { type: 'plain_text' as const, text: title },
  submit: { type: 'plain_text' as const, text: 'Reinstall' },
  blocks: [
    {
      type: 'input',
      block_id: 'os',
      label: { type: 'plain_text', text: 'Operating system' },
      element: { type: 'plain_text_input', action_id: 'os_input' },
    },
  ],
});

describe('fake Slack: views', () => {
  let slack: FakeSlack;
  afterEach(() => slack.close());

  it('views.open answers the stored view with an id and hash, and records it', async () => {
    slack = await createFakeSlack();
    const res = await webClient(slack.url).views.open({ trigger_id: triggerId(), view: modal() });
    const view = res.view!;
    expect(view.id).toMatch(/^V[A-Z0-9]{10}$/);
    expect(view).toMatchObject({ callback_id: 'server_reinstall', private_metadata: '{"server":42}', root_view_id: view.id, state: { values: {} } });
    expect(view.hash).toEqual(expect.any(String));
    expect(slack.views.latest()?.id).toBe(view.id);
  });

  it('trigger ids are single-use and expire after 3 seconds', async () => {
    let now = 1_700_000_000_000;
    slack = await createFakeSlack({ now: () => now });
    const client = webClient(slack.url);
    const trigger = triggerId(now);
    await client.views.open({ trigger_id: trigger, view: modal() });
    await slackError(client.views.open({ trigger_id: trigger, view: modal() }), 'exchanged_trigger_id');
    const late = triggerId(now);
    now += 4_000;
    await slackError(client.views.open({ trigger_id: late, view: modal() }), 'expired_trigger_id');
    await slackError(client.views.open({ trigger_id: 'not-a-trigger', view: modal() }), 'invalid_trigger_id');
  });

  it('views.update replaces the view by id, refusing a stale hash', async () => {
    slack = await createFakeSlack();
    const client = webClient(slack.url);
    const opened = (await client.views.open({ trigger_id: triggerId(), view: modal() })).view!;
    const updated = (await client.views.update({ view_id: opened.id!, hash: opened.hash!, view: modal('Reinstalling…') })).view!;
    expect(updated.id).toBe(opened.id);
    expect(updated.title?.text).toBe('Reinstalling…');
    await slackError(client.views.update({ view_id: opened.id!, hash: opened.hash!, view: modal() }), 'hash_conflict');
    await slackError(client.views.update({ view_id: 'VNOSUCHVIEW', view: modal() }), 'not_found');
    expect(slack.views.get(opened.id!)?.versions).toHaveLength(2);
  });

  it('views.push stacks on the open view, at most 3 deep', async () => {
    slack = await createFakeSlack();
    const client = webClient(slack.url);
    const root = (await client.views.open({ trigger_id: triggerId(), view: modal() })).view!;
    const pushed = (await client.views.push({ trigger_id: triggerId(), view: modal('Step 2') })).view!;
    expect(pushed).toMatchObject({ root_view_id: root.id, previous_view_id: root.id });
    await client.views.push({ trigger_id: triggerId(), view: modal('Step 3') });
    await slackError(client.views.push({ trigger_id: triggerId(), view: modal('Step 4') }), 'push_limit_reached');
  });

  it('rejects a view breaking Block Kit limits with invalid_arguments and records the violation', async () => {
    slack = await createFakeSlack();
    const client = webClient(slack.url);
    const data = await slackError(client.views.open({ trigger_id: triggerId(), view: modal('A title longer than 24 chars') }), 'invalid_arguments');
    expect(data.response_metadata).toMatchObject({ messages: [expect.stringContaining('[json-pointer:/view/title/text]')] });
    expect(slack.violations).toEqual([expect.objectContaining({ method: 'views.open', path: '/title/text' })]);
    expect(slack.views.all()).toEqual([]);
  });
});
