/**
 * The hostile-output typed tour: every operation with hostile typed arguments and ids,
 * refused with the input echoed or accepted and shown.
 */
import { SEED_SERVERS } from '../../src/sandbox/index.js';
import { typedWord } from '../rig/hostile-strings.js';
import { BOB, CAROL } from '../rig/workspace.js';
import type { BotRig } from './bot-rig.js';
import { run, type Outcome } from './hostile-run.js';
import { subscriptionLongCommands, subscriptionTypedCommands } from './hostile-subscriptions.js';

/**
 * Every operation with hostile typed arguments: free strings where the grammar takes one
 * (rename, backup name, rule comment, worker name/repo/branch/commands), and hostile or
 * hostile-but-valid-looking ids that are refused with the input echoed.
 */
export async function typedTour(rig: BotRig, t: string, long: string = t): Promise<Outcome[]> {
  const out: Outcome[] = [];
  const q = typedWord(t);
  const state = rig.sandbox.state;
  const web = state.servers.find((s) => s.id === SEED_SERVERS.web.id)!;
  const r = async (command: string, opts?: Parameters<typeof run>[2]) => void out.push(await run(rig, command, opts));
  // Unquoted, so it splits into words: an unknown resource, verb or flag is echoed.
  const bare = t.replace(/["“”‘’']/g, '');
  for (const c of [
    bare, `server ${q}`, `server status 101 --${q}`, `server status ${q}`, `server status 101${t.slice(0, 30).replace(/\s|["“”‘’']/g, '')}`,
    `server status ${web.uuid}${q}`, `server credentials ${q}`, `server ips ${q}`, `server rename ${q} x`,
    `server rename 101 ${q}`,
    `server reinstall 101 --template debian-12 --ssh-keys ${q}`, `server remove-ip 101 ${q}`, `backup list ${q}`,
    `backup list 101 --page ${q}`, `backup create 101 --mode ${q}`, `backup create 101 --compression ${q}`,
    `backup delete 101 ${q}`, `backup delete 101 ${state.backups[101]![0]!.uuid}${q}`, `ip reserve --location ${q} --subnet ${q}`,
    `ip reserve --location 1 --subnet sub-ams-1 --quantity ${q}`, `worker status ${q}`, `worker deploy --name x --location ${q} --repo https://github.com/a/b.git`,
    `worker deploy --name ${q} --location 1 --repo ${q}`, `worker deploy --name x --location 1 --source ${q}`,
    `worker deploy --name x --location 1 --repo https://github.com/a/b.git --port ${q}`, `sg show ${q}`, `sg delete-rule 7 ${q}`,
    `sg attach 7 ${q}`, `sg deploy ${q}`, `sg add-rule 7 --type ${q} --action ACCEPT --protocol tcp`,
    `sg add-rule 7 --type inbound --action ACCEPT --protocol tcp --source ${q}`, `sg add-rule 7 --type inbound --action ACCEPT --protocol tcp --port ${q}`,
    `sg add-rule 7 --type inbound --action ACCEPT --protocol tcp --priority ${q}`, `ssh-key delete ${q}`, `ssh-key show ${q}`, `plan list --location ${q}`,
    `plan list --page ${q}`, `account invoices --page ${q}`, `sg show 7 --page ${q}`, `server ips 101 --page ${q}`, `ssh-key list --page ${q}`,
    `ip subnets --page ${q}`, `worker locations --page ${q}`, `worker templates --page ${q}`, `server known --page ${q}`, `sg known --page ${q}`, `worker known --page ${q}`, `watch cancel ${q}`, `audit --user ${q}`, `audit --limit ${q}`,
    `server status 101 --dry-run ${q}`, `policy ${q}`, `server status 101 --account ${q}`, ...subscriptionTypedCommands(q),
    // Aliases: a hostile name is refused; a hostile command is saved, listed, run (and refused by the parser).
    `alias create ${q} = server status $1`, `alias create hq = server status ${q}`, 'alias list', 'hq', `hq ${q}`, `alias delete ${q}`,
    // Schedules: hostile commands, times, zones and ids are refused or stored and echoed as values.
    `schedule ${q} daily 02:00`, `schedule "server status ${q}" daily 02:00`, `schedule "server status 101" ${q}`,
    `schedule "server status 101" daily 02:00 --tz ${q}`, `schedule "backup create 101" daily 02:00 --keep ${q}`, `schedule cancel ${q}`, 'schedules',
  ]) await r(c);
  // Free strings that are accepted: shown in the status message, dry runs and the audit channel
  // (an unknown template is passed on and refused by the cloud after Confirm).
  await r(`server reinstall 101 --template ${q}`, { typed: web.hostname });
  // The rename above taught the bot that server 101 is called q (names instead of numbers), so
  // this may reach a confirmation: cancelled, as the tour types no hostname.
  await r(`server reinstall ${q} --template debian-12`, { cancel: true });
  await r(`server rename 101 ${q} --dry-run`);
  await r(`server rename 101 ${typedWord(t.slice(0, 40))}`);
  await r(`backup create 101 --name ${q}`);
  await r(`backup create 101 --name ${typedWord(t.slice(0, 60))}`);
  await r(`sg add-rule 7 --type inbound --action ACCEPT --protocol tcp --port 8080 --comment ${q}`);
  await r(`sg add-rule 7 --type inbound --action ACCEPT --protocol tcp --port 8081 --comment ${typedWord(t.slice(0, 200))} --dry-run`);
  await r(`worker deploy --name ${typedWord(t.slice(0, 180))} --location 1 --repo https://github.com/acme/x.git --branch ${q} --install ${q} --build ${q} --start ${q} --base-dir ${q} --publish-dir ${q}`);
  await r(`worker deploy --name ${typedWord(t.slice(0, 100))} --location 1 --repo https://github.com/acme/x.git --dry-run`);
  // About 5,000 characters: refused as too long, with the value echoed (capped).
  const L = typedWord(long);
  for (const c of [`server status ${L}`, `server rename 101 ${L}`, `backup create 101 --name ${L}`, `worker deploy --name ${L} --location 1 --repo ${L}`,
    `sg add-rule 7 --type inbound --action ACCEPT --protocol tcp --port 8080 --comment ${L}`, `audit --user ${L}`, ...subscriptionLongCommands(L)]) await r(c);
  await r(`backup create 102 --name ${q}`, { userId: CAROL.id }); // refused: echoed to the audit channel
  await r(`server rename 101 ${q}`, { userId: BOB.id });
  await r('audit --limit 100');
  await rig.bot.auditor.flush();
  return out;
}
