/**
 * The hostile-output cloud tour: every operation over hostile cloud data (seeded by
 * hostile-seed.ts), hostile cloud errors, Confirm clicks, and watches followed to their
 * final broadcast.
 */
import { SEED_SERVERS, SEED_WORKER_UUID } from '../../src/sandbox/index.js';
import { typedWord } from '../rig/hostile-strings.js';
import { waitFor } from '../rig/wait-for.js';
import { CAROL, OPS_CHANNEL } from '../rig/workspace.js';
import { WATCHER_AGENT, type BotRig } from './bot-rig.js';
import { run, STUCK, type Outcome } from './hostile-run.js';
import { subscriptionCloudTour } from './hostile-subscriptions.js';

/** Waits for the watch on a status message to broadcast its final state. */
export async function finalBroadcast(rig: BotRig, ts: string) {
  return waitFor(
    () => rig.slack.callsTo('chat.postMessage').find((c) => c.params.thread_ts === ts && (c.params.reply_broadcast === true || c.params.reply_broadcast === 'true')),
    { timeoutMs: 6000 },
  ).catch(() => undefined);
}

const newestStatusTs = (rig: BotRig) => rig.slack.messages.inChannel(OPS_CHANNEL.id).at(-1)!.ts;

/**
 * Every operation over hostile cloud data (already seeded), with cloud errors whose message,
 * code and field errors are hostile, Confirm clicks, a cancel, and watches that end in a
 * failed build (hostile last_error) and a successful one (hostile fqdn).
 */
export async function cloudTour(rig: BotRig, h: (i: number) => string): Promise<Outcome[]> {
  const out: Outcome[] = [];
  const state = rig.sandbox.state;
  const web = state.servers.find((s) => s.id === SEED_SERVERS.web.id)!;
  const r = async (command: string, opts?: Parameters<typeof run>[2]) => void out.push(await run(rig, command, opts));

  for (const c of [
    '', 'help', 'server', 'server status 101', 'server status 102', 'server status 103', 'server status 104',
    'server credentials 101', 'server ips 101', 'backup list 101', 'backup list 101 --page 2', 'backup list 102', 'ip subnets',
    'worker requirements', 'worker locations', 'worker templates', `worker status ${SEED_WORKER_UUID}`, 'sg show 7', 'sg show 8',
    'ssh-key list', 'ssh-key show 11', 'plan list', 'plan list --page 2', 'plan list --location 1', 'account usage', 'account invoices',
    'account invoices --page 2', 'watch list', 'audit', 'audit --limit 50', 'policy', `policy ${CAROL.id}`,
    'server known', 'sg known', 'worker known', // hostile names remembered from the answers above
  ]) await r(c);
  await r('server credentials 101', { userId: CAROL.id }); // refused: goes to the audit channel

  // Forms list cloud-controlled choices (SSH key names, OS templates, locations, templates).
  await r('server reinstall 101');
  await r('worker deploy');

  // Changes through Confirm (the status message shows cloud names; the audit channel too).
  await r(`server rename 101 ${typedWord('plain-name')}`);
  await r('backup create 101 --name nightly');
  await r(`backup delete 101 ${state.backups[101]![0]!.uuid}`);
  await r('backup delete 102 ' + state.backups[102]![1]!.uuid, { cancel: true });
  await r('sg add-rule 7 --type inbound --action ACCEPT --protocol tcp --port 8080 --comment ok');
  await r('sg delete-rule 7 71');
  await r(`sg attach 8 ${web.uuid}`);
  await r('sg deploy 7');
  await r('ssh-key delete 13');
  await r('server remove-ip 101 185.10.20.12');
  await r('ip reserve --location 1 --subnet sub-ams-1');
  await r('server reinstall 102 --template debian-12', { typed: state.servers.find((s) => s.id === 102)!.hostname });

  // Cloud errors with hostile message, code and field errors: for a read and after Confirm.
  rig.sandbox.addFault({ method: 'GET', path: '/servers/101/status', status: 422, code: 'VALIDATION_ERROR', message: h(1), details: { [h(2)]: [h(3)], name: [h(4)] } });
  await r('server status 101');
  rig.sandbox.addFault({ method: 'GET', path: '/servers/102/ips', status: 409, code: h(5), message: h(6) });
  await r('server ips 102');
  rig.sandbox.addFault({ method: 'POST', path: /\/servers\/101\/backups$/, status: 422, code: 'VALIDATION_ERROR', message: h(7), details: { name: [h(8)] } });
  await r('backup create 101 --name again');
  rig.sandbox.failNextSyncs(1);
  await r('sg deploy 8'); // fails with a sync error naming (hostile) nodes/groups; offers Retry sync

  state.account.workersAllowed = 10; // the seeded worker, three deploys and one by hand
  // Watches: a build that fails with a hostile last_error, one that succeeds at a hostile fqdn,
  // and one at a plain fqdn that is linked.
  for (const [name, ending] of [['fails', 'failed'], ['odd-fqdn', 'active'], ['plain', 'active']] as const) {
    const deployed = run(rig, `worker deploy --name ${name} --location 1 --repo https://github.com/acme/${name}.git`);
    const uuids = new Set(state.workers.map((w) => w.uuid));
    const w = await waitFor(() => state.workers.find((x) => !uuids.has(x.uuid)), { timeoutMs: 6000 }).catch(() => undefined);
    if (!w) {
      out.push({ command: `worker deploy ${name}`, how: `${STUCK}: nothing deployed` }, await deployed);
      continue;
    }
    if (ending === 'failed') Object.assign(w, { build: null, status: 'failed', lastDeploymentStatus: 'failed', runtimeStatus: null, lastError: h(9) });
    else if (name === 'odd-fqdn') {
      // A hostile deployment status once the watch has seen the first state (so a thread reply
      // tells of the change), then the sandbox's own end.
      Object.assign(w, { fqdnOverride: h(10), build: { ...w.build!, buildMs: 1200 } });
      const polled = () => rig.sandbox.requests.some((q) => q.userAgent === WATCHER_AGENT && q.path === `/workers/${w.uuid}/status`);
      await waitFor(polled, { timeoutMs: 3000 }).catch(() => undefined);
      w.lastDeploymentStatus = h(11);
    }
    else w.fqdnOverride = `plain-${w.uuid.slice(0, 8)}.workers.example.net`;
    out.push(await deployed);
    if (!(await finalBroadcast(rig, newestStatusTs(rig)))) out.push({ command: `worker ${name}`, how: `${STUCK}: no final broadcast` });
    await r(`worker status ${w.uuid}`);
  }
  // A watch by hand, listed and cancelled.
  const byHand = await rig.cloud.workers.deploy({ location_id: 1, name: 'by-hand', git_source: 'public', git_repository: 'https://github.com/acme/b.git' });
  const watchFrom = rig.responses.posts.length;
  await r(`worker status ${byHand.uuid} --watch`);
  await r('watch list');
  // Its id from the answers (cancelling one that already ended is answered too).
  const watchId = /`(w[a-z2-7]{8})`/.exec(JSON.stringify(rig.responses.posts.slice(watchFrom).map((p) => p.body)))?.[1];
  await r(`watch cancel ${watchId ?? 'wzzzzzzzz'}`);
  // Subscriptions, and the monitor's alerts and digest over the hostile data.
  await subscriptionCloudTour(rig, (c) => r(c), h);
  // Aliases: saved, run over the hostile data, listed, deleted.
  for (const c of ['alias create hw = server status $1', 'hw 101', 'alias list', 'alias delete hw']) await r(c);
  // Schedules: a read scheduled, then run by the scheduler over the hostile data (its answer
  // posted in the channel); listed, cancelled; the Confirm card's entries cannot be typed.
  await r('schedule "server status 101" in 5m --tz UTC');
  rig.clock.jump?.(6 * 60_000);
  await rig.bot.scheduler.tick();
  await rig.bot.scheduler.settled();
  for (const c of ['schedules --all', 'schedule cancel sch_0000000000', 'schedule confirm', 'schedule confirm-spend']) await r(c);
  await r('audit --limit 100');
  await rig.bot.auditor.flush();
  return out;
}
