/**
 * Security group changes end to end: add-rule (flags, the form, field errors from the bot and
 * from the cloud), delete-rule, attach and deploy — and HYPERVISOR_SYNC_FAILED, where "Retry
 * sync" redeploys the group and never sends the change twice.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { asSlackSends } from '../rig/hostile-strings.js';
import { viewSubmissionPayload } from '../rig/payloads.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, OPS_CHANNEL } from '../rig/workspace.js';
import { rigHelpers, startBotRig, visibleText, type BotRig } from './bot-rig.js';

const WEB_1 = '5f0c3a1e-8b2d-4c6f-9a7e-2d4b6c8e0a11';

let rig: BotRig;
const { text, latest, until, ephemeralTo, buttons } = rigHelpers(() => rig);
beforeAll(async () => {
  rig = await startBotRig();
});
afterEach(() => {
  rig.sandbox.failNextSyncs(0);
  rig.sandbox.clearFaults();
});
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});

const sent = (from: number) => rig.mutations(from).map((r) => ({ method: r.method, path: r.rawPath, body: r.body }));
const ruleForm = () =>
  waitFor(() => {
    const v = rig.slack.views.latest();
    // An open form: the previous test's form, submitted and closed, is not this one.
    return v && rig.slack.views.isOpen(v.id) && v.view.callback_id === 'cloud_change' && JSON.stringify(v.view).includes('"block_id":"protocol"') ? v : undefined;
  }, { timeoutMs: 5000 });
/** Runs a change command and returns its status message once it reached `word`. */
async function change(command: string, word: string) {
  const before = Date.now();
  await rig.sendCommand(command);
  const msg = await rig.statusMessage(OPS_CHANNEL.id, before);
  return until(msg, word);
}

const NO_ADDRESSES = { source: null, destination: null, source_port: null, destination_port: null };

describe('sg add-rule', () => {
  it('with flags (aliases allowed): one POST with the canonical rule; the new rule id in the channel', async () => {
    const from = rig.sandbox.requests.length;
    const done = await change('sg add-rule 7 --type in --action allow --protocol TCP --source 198.51.100.0/24 --port "22, 2222" --comment "SSH from VPN" --priority 15', '— done');
    const body = { type: 'inbound', action: 'ACCEPT', protocol: 'tcp', ...NO_ADDRESSES, source: '198.51.100.0/24', destination_port: '22,2222', comment: 'SSH from VPN', priority: 15 };
    expect(sent(from)).toEqual([{ method: 'POST', path: '/v2/security-groups/7/rules', body }]);
    const rule = rig.sandbox.state.securityGroups.find((g) => g.id === 7)!.rules.find((r) => r.comment === 'SSH from VPN')!;
    expect(text(done)).toContain('Add rule to security group 7: inbound ACCEPT tcp from `198.51.100.0/24` to anywhere port `22,2222`, priority 15 (`SSH from VPN`)');
    expect(text(done)).toContain(`Rule \`#${rule.id}\` is in security group \`7\`: inbound ACCEPT tcp from \`198.51.100.0/24\` to anywhere port \`22,2222\`, priority 15 (\`SSH from VPN\`).`);
    expect(buttons(done)).toEqual([]);
  });

  it('missing type/action/protocol opens the form, prefilled; submitting sends exactly the rule', async () => {
    const from = rig.sandbox.requests.length;
    const before = Date.now();
    await rig.sendCommand('sg add-rule 7 --port 8443');
    const form = await ruleForm();
    expect(JSON.stringify(form.view)).toContain('"initial_value":"8443"');
    const res = await rig.send.interaction(
      viewSubmissionPayload({
        view: { ...form.view, id: form.id },
        values: { type: 'inbound', action: 'REJECT', protocol: 'tcp', source: '203.0.113.7', comment: 'Admin UI' },
        userId: ALICE.id,
      }),
    );
    expect(res.text).toBe('');
    const msg = await rig.statusMessage(OPS_CHANNEL.id, before);
    await until(msg, '— done');
    expect(sent(from)).toEqual([
      { method: 'POST', path: '/v2/security-groups/7/rules', body: { type: 'inbound', action: 'REJECT', protocol: 'tcp', ...NO_ADDRESSES, source: '203.0.113.7', destination_port: '8443', comment: 'Admin UI' } },
    ]);
  });

  it('a bad group with flags missing is refused before the form opens: a typed link never reaches the form', async () => {
    const views = rig.slack.calls.filter((c) => c.method === 'views.open').length;
    const r = await rig.command(asSlackSends('sg add-rule "<https://evil.example/login|Confirm here>" --type in'));
    expect(visibleText(r.final)).toContain('<id>');
    expect(JSON.stringify(r.final)).not.toContain('<https://evil.example');
    expect(rig.slack.calls.filter((c) => c.method === 'views.open').length).toBe(views);
    expect(r.cloudRequests).toEqual([]);
  });

  it('a bad CIDR and a port with icmp: errors on those two form fields, nothing sent', async () => {
    await rig.sendCommand('sg add-rule 7');
    const form = await ruleForm();
    const from = rig.sandbox.requests.length;
    const res = await rig.send.interaction(
      viewSubmissionPayload({
        view: { ...form.view, id: form.id },
        values: { type: 'inbound', action: 'ACCEPT', protocol: 'icmp', source: '10.0.0.0/33', port: '22' },
        userId: ALICE.id,
      }),
    );
    const json = res.json as { response_action: string; errors: Record<string, string> };
    expect(json.response_action).toBe('errors');
    expect(Object.keys(json.errors).sort()).toEqual(['port', 'source']);
    expect(json.errors.source).toContain('“10.0.0.0/33” is not an address');
    expect(json.errors.port).toContain('Ports are only allowed with tcp or udp; icmp has none');
    expect(rig.sandbox.requests.length).toBe(from);
  });

  it('the same mistakes typed as flags are listed back; nothing sent', async () => {
    const r = await rig.command('sg add-rule 7 --type in --action allow --protocol icmp --port 22');
    expect(visibleText(r.final)).toContain('nothing was sent');
    expect(visibleText(r.final)).toContain('`--port`: Ports are only allowed with tcp or udp'); // the flag as typed, like `--page`
    expect(r.cloudRequests).toEqual([]);
  });

  it('the cloud’s VALIDATION_ERROR on destination_port lands on the form’s port field', async () => {
    // The bot's validator is at least as strict as the sandbox, so the cloud's refusal is injected.
    rig.sandbox.addFault({
      method: 'POST',
      path: '/security-groups/7/rules',
      status: 422,
      code: 'VALIDATION_ERROR',
      message: 'The destination port is not allowed.',
      details: { destination_port: ['The destination port is not allowed on this group.'] },
    });
    await rig.sendCommand('sg add-rule 7');
    const form = await ruleForm();
    const from = rig.sandbox.requests.length;
    const res = await rig.send.interaction(
      viewSubmissionPayload({ view: { ...form.view, id: form.id }, values: { type: 'inbound', action: 'ACCEPT', protocol: 'udp', port: '53' }, userId: ALICE.id }),
    );
    expect(res.json).toEqual({ response_action: 'errors', errors: { port: 'The destination port is not allowed on this group.' } });
    expect(sent(from)).toEqual([
      { method: 'POST', path: '/v2/security-groups/7/rules', body: { type: 'inbound', action: 'ACCEPT', protocol: 'udp', ...NO_ADDRESSES, destination_port: '53' } },
    ]);

    // Submitted again unchanged: the same request, not sent twice — and the form says why again
    // instead of closing as if it had gone through.
    const same = await rig.send.interaction(
      viewSubmissionPayload({ view: { ...form.view, id: form.id }, values: { type: 'inbound', action: 'ACCEPT', protocol: 'udp', port: '53' }, userId: ALICE.id }),
    );
    expect(same.json).toEqual({ response_action: 'errors', errors: { port: 'The destination port is not allowed on this group.' } });
    expect(sent(from)).toHaveLength(1);

    // The person corrects the field and submits the same form again: that is a new request.
    const again = await rig.send.interaction(
      viewSubmissionPayload({ view: { ...form.view, id: form.id }, values: { type: 'inbound', action: 'ACCEPT', protocol: 'udp', port: '5353' }, userId: ALICE.id }),
    );
    expect(again.text).toBe('');
    expect(sent(from).map((r) => (r.body as { destination_port: string }).destination_port)).toEqual(['53', '5353']);
  });

  it('HYPERVISOR_SYNC_FAILED: saved but not applied; Retry sync redeploys once and never re-creates the rule', async () => {
    rig.sandbox.failNextSyncs(1);
    const from = rig.sandbox.requests.length;
    const failed = await change('sg add-rule 7 --type inbound --action ACCEPT --protocol udp --port 51820 --comment WireGuard', '— failed');
    expect(text(failed)).toContain('The firewall change is saved, but it is not applied on every node yet.');
    expect(text(failed)).toContain('`HYPERVISOR_SYNC_FAILED`');
    expect(buttons(failed)).toEqual(['"action_id":"op_retry_sync"']);
    expect(sent(from).map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v2/security-groups/7/rules']);

    await rig.click(failed, 'op_retry_sync', ALICE.id);
    await waitFor(() => ephemeralTo(ALICE.id).some((t) => t.includes('Security group 7 is synced to every node now')), { timeoutMs: 5000 });
    expect(sent(from)).toEqual([
      { method: 'POST', path: '/v2/security-groups/7/rules', body: { type: 'inbound', action: 'ACCEPT', protocol: 'udp', ...NO_ADDRESSES, destination_port: '51820', comment: 'WireGuard' } },
      { method: 'POST', path: '/v2/security-groups/7/deploy', body: undefined },
    ]);
    const group = await rig.cloud.securityGroups.get(7);
    expect(group.rules!.filter((r) => r.comment === 'WireGuard')).toHaveLength(1);
    // The status message is repaired in place: done, and no Retry sync button any more.
    const repaired = await until(failed, '— done');
    expect(text(repaired)).toContain(`synced to every node after a retry by <@${ALICE.id}>`);
    expect(buttons(repaired)).toEqual([]);
  });

  it('--dry-run shows the canonical body and sends nothing', async () => {
    const r = await rig.command('sg add-rule 7 --type out --action deny --protocol all --destination 192.0.2.0/24 --dry-run');
    expect(visibleText(r.final)).toContain('`POST /security-groups/7/rules`');
    expect(visibleText(r.final)).toContain('"action": "DROP"');
    // No --priority: the body has none, so the summary names none (the cloud applies its default).
    expect(visibleText(r.final)).not.toContain('"priority"');
    expect(visibleText(r.final)).toContain('Add rule to security group 7: outbound DROP all from anywhere to `192.0.2.0/24`');
    expect(visibleText(r.final)).not.toMatch(/priority/i);
    expect(r.cloudRequests).toEqual([]);
  });
});

describe('sg delete-rule', () => {
  it('describes the rule, waits for Confirm, then sends one DELETE', async () => {
    const from = rig.sandbox.requests.length;
    const before = Date.now();
    await rig.sendCommand('sg delete-rule 7 72');
    const msg = await rig.statusMessage(OPS_CHANNEL.id, before);
    expect(text(msg)).toContain('Delete rule #72 from security group 7 (`web-default`)* — awaiting confirmation');
    expect(text(msg)).toContain('The rule: inbound ACCEPT tcp from anywhere to anywhere port `80,443`, priority 20 (`HTTP and HTTPS`).');
    expect(rig.mutations(from)).toEqual([]);
    await rig.click(msg, 'op_confirm', ALICE.id);
    const done = await until(msg, '— done');
    expect(sent(from)).toEqual([{ method: 'DELETE', path: '/v2/security-groups/7/rules/72', body: undefined }]);
    expect(text(done)).toContain('Rule `#72` is deleted from security group `7`.');
  });

  it('a rule the group does not have is refused before asking', async () => {
    const r = await rig.command('sg delete-rule 7 81');
    expect(visibleText(r.final)).toContain('Security group `7` has no rule `#81`');
    expect(r.cloudRequests.map((q) => `${q.method} ${q.rawPath}`)).toEqual(['GET /v2/security-groups/7']);
  });

  it('HYPERVISOR_SYNC_FAILED: the deletion stays saved; Retry sync redeploys, no second DELETE', async () => {
    rig.sandbox.failNextSyncs(1);
    const from = rig.sandbox.requests.length;
    const before = Date.now();
    await rig.sendCommand('sg delete-rule 8 81');
    const msg = await rig.statusMessage(OPS_CHANNEL.id, before);
    await rig.click(msg, 'op_confirm', ALICE.id);
    const failed = await until(msg, '— failed');
    expect(text(failed)).toContain('saved, but it is not applied');
    await rig.click(failed, 'op_retry_sync', ALICE.id);
    await waitFor(() => ephemeralTo(ALICE.id).some((t) => t.includes('Security group 8 is synced')), { timeoutMs: 5000 });
    expect(sent(from).map((r) => `${r.method} ${r.path}`)).toEqual(['DELETE /v2/security-groups/8/rules/81', 'POST /v2/security-groups/8/deploy']);
    expect(rig.sandbox.state.securityGroups.find((g) => g.id === 8)!.rules.map((r) => r.id)).toEqual([82]);
  });
});

describe('sg attach', () => {
  it('by short uuid: one POST with server_uuid, no confirmation', async () => {
    const from = rig.sandbox.requests.length;
    const done = await change(`sg attach 8 ${WEB_1.slice(0, 8)}`, '— done');
    expect(sent(from)).toEqual([{ method: 'POST', path: '/v2/security-groups/8/servers/attach', body: { server_uuid: '5f0c3a1e' } }]);
    expect(text(done)).toContain('Server `5f0c3a1e` is attached to security group `8`');
    expect(rig.sandbox.state.securityGroups.find((g) => g.id === 8)!.serverIds).toContain(101);
  });

  it('a numeric server id is refused with where to find the short uuid', async () => {
    const r = await rig.command('sg attach 8 104');
    expect(visibleText(r.final)).toContain('looks like a numeric server id');
    expect(visibleText(r.final)).toContain('8-character short uuid');
    // Not `/cloud sg show <id>`: it lists only the servers already attached to a group.
    expect(visibleText(r.final)).not.toContain('/cloud sg show');
    expect(visibleText(r.final)).toContain('`/cloud server known` shows the uuids the bot has seen');
    expect(r.cloudRequests).toEqual([]);
    // Server 104 is in no group, so no `sg show` could have shown its uuid.
    expect(rig.sandbox.state.securityGroups.some((g) => g.serverIds.includes(104))).toBe(false);
    // Once the bot has seen a server's uuid in any answer, `server known` shows it.
    await rig.command('sg show 7');
    const known = visibleText((await rig.command('server known')).final);
    expect(known).toContain(WEB_1);
  });

  it('a server already attached: ALREADY_ATTACHED in words in the status message', async () => {
    const from = rig.sandbox.requests.length;
    const failed = await change(`sg attach 7 ${WEB_1}`, '— failed');
    expect(sent(from)).toEqual([{ method: 'POST', path: '/v2/security-groups/7/servers/attach', body: { server_uuid: WEB_1 } }]);
    expect(text(failed)).toContain('That server is already attached to this security group.');
    expect(text(failed)).toContain('`ALREADY_ATTACHED`');
    expect(buttons(failed)).toEqual([]);
  });
});

describe('sg deploy', () => {
  it('one POST /deploy, done', async () => {
    const from = rig.sandbox.requests.length;
    const done = await change('sg deploy 7', '— done');
    expect(sent(from)).toEqual([{ method: 'POST', path: '/v2/security-groups/7/deploy', body: undefined }]);
    expect(text(done)).toContain('Security group `7` is deployed');
  });

  it('a sync failure offers Retry sync, which deploys again once', async () => {
    rig.sandbox.failNextSyncs(1);
    const from = rig.sandbox.requests.length;
    const failed = await change('sg deploy 8', '— failed');
    expect(text(failed)).toContain('`HYPERVISOR_SYNC_FAILED`');
    expect(buttons(failed)).toEqual(['"action_id":"op_retry_sync"']);
    const synced = () => ephemeralTo(ALICE.id).filter((t) => t.includes('Security group 8 is synced')).length;
    const earlier = synced();
    // A double click on Retry sync: the record is claimed once, so one deploy is sent.
    await Promise.all([rig.click(failed, 'op_retry_sync', ALICE.id), rig.click(failed, 'op_retry_sync', ALICE.id)]);
    await waitFor(() => synced() > earlier, { timeoutMs: 5000 });
    await until(failed, '— done');
    expect(sent(from).map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v2/security-groups/8/deploy', 'POST /v2/security-groups/8/deploy']);
  });

  it('a Retry sync that fails otherwise: the status message tells the retry’s failure, not the first 502’s', async () => {
    rig.sandbox.failNextSyncs(1);
    const from = rig.sandbox.requests.length;
    const failed = await change('sg deploy 8', '— failed');
    expect(text(failed)).toContain('`HYPERVISOR_SYNC_FAILED`');
    // The retry's deploy is refused with a 403 the bot cannot read.
    rig.sandbox.addFault({ method: 'POST', path: '/security-groups/8/deploy', status: 403, rawBody: '<html>Forbidden</html>' });
    await rig.click(failed, 'op_retry_sync', ALICE.id);
    await waitFor(() => ephemeralTo(ALICE.id).some((t) => t.includes('The sync failed again') && t.includes('HTTP 403')), { timeoutMs: 5000 });
    const again = await until(failed, '`HTTP_ERROR`');
    expect(sent(from).map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v2/security-groups/8/deploy', 'POST /v2/security-groups/8/deploy']);
    // What the cloud answered the retry: a 403 refusal, not the first attempt's 502.
    expect(text(again)).toContain('HTTP 403');
    expect(text(again)).not.toContain('HTTP 502');
    // The rule stays saved (the deploy was refused, not the change): said so, Retry sync still offered.
    expect(text(again)).toContain('The firewall change is saved but not applied on every node yet: the sync was refused.');
    expect(text(again)).not.toContain('Nothing was changed');
    expect(buttons(again)).toEqual(['"action_id":"op_retry_sync"']);
  });
});

describe('Retry sync whose deploy gets no clear answer', () => {
  it('the rule stays saved, the sync’s outcome is unknown, and Retry sync is still offered', async () => {
    rig.sandbox.failNextSyncs(1);
    const from = rig.sandbox.requests.length;
    const failed = await change('sg add-rule 8 --type in --action allow --protocol tcp --port 8443 --comment "retry sync unknown"', '— failed');
    expect(text(failed)).toContain('`HYPERVISOR_SYNC_FAILED`');
    // The retry's deploy: the connection drops, no answer (as a timeout or a 5xx would leave it).
    rig.sandbox.addFault({ method: 'POST', path: '/security-groups/8/deploy', destroySocket: true });
    await rig.click(failed, 'op_retry_sync', ALICE.id);
    await waitFor(() => ephemeralTo(ALICE.id).some((t) => t.includes('The sync’s outcome is unknown')), { timeoutMs: 5000 });
    const unknown = await until(failed, '`NETWORK_ERROR`');
    expect(text(unknown)).toContain('The firewall change is saved; whether this sync reached every node is unknown.');
    expect(text(unknown)).not.toContain('may or may not have reached the cloud');
    expect(buttons(unknown)).toEqual(['"action_id":"op_retry_sync"']);
    // Retry sync again: one more deploy, never the rule again.
    await rig.click(unknown, 'op_retry_sync', ALICE.id);
    await until(failed, '— done');
    expect(sent(from).map((r) => `${r.method} ${r.path}`)).toEqual(['POST /v2/security-groups/8/rules', 'POST /v2/security-groups/8/deploy', 'POST /v2/security-groups/8/deploy']);
    expect(rig.sandbox.state.securityGroups.find((g) => g.id === 8)!.rules.filter((r) => r.comment === 'retry sync unknown')).toHaveLength(1);
  });

  it('a 5xx from the deploy: the same — saved, outcome unknown, Retry sync offered', async () => {
    rig.sandbox.failNextSyncs(1);
    const failed = await change('sg deploy 8', '— failed');
    rig.sandbox.addFault({ method: 'POST', path: '/security-groups/8/deploy', status: 504 });
    await rig.click(failed, 'op_retry_sync', ALICE.id);
    const unknown = await until(failed, '`GATEWAY_TIMEOUT`');
    expect(text(unknown)).toContain('The firewall change is saved; whether this sync reached every node is unknown.');
    expect(text(unknown)).not.toContain('may or may not have reached the cloud');
    expect(buttons(unknown)).toEqual(['"action_id":"op_retry_sync"']);
  });
});
