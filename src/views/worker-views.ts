/** Views of workers: deploy requirements, locations, templates, status. */
import { maintenanceMark, windowOver } from './maintenance-views.js';
import type { DeployRequirements, Worker, WorkerLocation, WorkerTemplate } from '../cloud-api/schemas.js';
import type { ViewContext } from './types.js';
import type { Block, Reply } from './types.js';
import { context, fields, header, section } from './blocks.js';
import { ago, money } from './format.js';
import { codeBlock, hostLink, join, md, val, type Mrkdwn } from './mrkdwn.js';
import { pagedLines, type ListPaging } from './pager.js';

/** A worker location as people name it (plain text: option text, headers). */
export function workerLocationName(l: WorkerLocation): string {
  return [l.short_code, l.name ?? l.description].filter(Boolean).join(' — ') || `Location ${l.id}`;
}

/** The same name in mrkdwn, as one value. */
export function workerLocationLabel(l: WorkerLocation): Mrkdwn {
  return l.short_code || l.name || l.description ? val(workerLocationName(l)) : md`Location ${l.id}`;
}

export function buildRequirements(r: DeployRequirements): Reply {
  const ok = r.sufficient && r.workers_used < r.workers_allowed;
  const l = r.limits;
  const limits: Mrkdwn[] = l
    ? [l.cpu != null ? md`${l.cpu} CPU` : null, l.memory_mb != null ? md`${l.memory_mb} MB RAM` : null, l.disk_mb != null ? md`${l.disk_mb} MB disk` : null].filter(
        (x): x is Mrkdwn => x !== null,
      )
    : [];
  return {
    text: ok ? md`A worker can be deployed now.` : md`A worker cannot be deployed now.`,
    blocks: [
      header('Worker deploy requirements'),
      fields([
        [md`Balance`, md`${money(r.credit)} ${r.sufficient ? md`:white_check_mark:` : md`:x:`}`],
        [md`Minimum to deploy`, money(r.minimum_credit)],
        [md`Workers`, md`${r.workers_used} of ${r.workers_allowed} ${r.workers_used < r.workers_allowed ? md`:white_check_mark:` : md`:x: limit reached`}`],
        [md`New worker limits`, limits.length ? join(limits, ' · ') : md`—`],
      ]),
      context(ok ? md`Deploying charges the first hour against the balance.` : md`Top up the balance or free a worker slot before deploying.`),
    ],
  };
}

export function buildLocations(locations: WorkerLocation[], paging?: ListPaging): Reply {
  if (locations.length === 0) return { text: md`No worker locations.`, blocks: [section(md`The cloud lists no worker locations.`)] };
  const lines = locations.map((l) => {
    return md`• ${val(l.id)} ${workerLocationLabel(l)}${l.out_of_stock ? md` · :no_entry: out of stock` : md``}`;
  });
  return { text: md`${locations.length} worker locations`, blocks: [header('Worker locations'), ...pagedLines(lines, paging, md`locations`)] };
}

export function buildTemplates(templates: WorkerTemplate[], paging?: ListPaging): Reply {
  if (templates.length === 0) return { text: md`No worker templates.`, blocks: [section(md`The cloud lists no worker templates.`)] };
  const lines = templates.map(
    (t) => md`• ${val(t.id)} ${val(t.name)}${t.type ? md` (${val(t.type)})` : md``}${t.description ? md` — ${val(t.description)}` : md``}`,
  );
  return {
    text: md`${templates.length} worker templates`,
    blocks: [
      header('Worker templates'),
      ...pagedLines(lines, paging, md`templates`),
      context(md`Deploy one with \`--source template\` (or \`database\`) and the template id as the repository.`),
    ],
  };
}

/** Known statuses in our own words; any other is shown as the value the cloud gave. */
const STATUS: Record<string, Mrkdwn> = {
  active: md`:large_green_circle: active`,
  pending: md`:hourglass_flowing_sand: pending`,
  failed: md`:x: failed`,
  suspended: md`:double_vertical_bar: suspended`,
};

export function workerStatusText(status: string | null | undefined): Mrkdwn {
  return status != null && Object.hasOwn(STATUS, status) ? STATUS[status]! : val(status);
}

const withAgo = (what: string | null | undefined, at: string | null | undefined, now: number): Mrkdwn =>
  md`${val(what)}${at ? md` (${ago(at, now)})` : md``}`;

export function buildWorkerStatus(w: Worker, view: ViewContext): Reply {
  const pairs: [Mrkdwn, Mrkdwn][] = [
    [md`Status`, workerStatusText(w.status)],
    [md`Last deployment`, withAgo(w.last_deployment_status, w.last_deployment_at, view.now)],
    [md`Runtime`, withAgo(w.runtime_status, w.runtime_status_at, view.now)],
    [md`Address`, hostLink(w.fqdn)],
  ];
  if (w.git_repository) {
    pairs.push([md`Source`, md`${val(w.git_source ?? 'git')}: ${val(w.git_repository)}${w.git_branch ? md` @ ${val(w.git_branch)}` : md``}`]);
  }
  if (w.location) pairs.push([md`Location`, val(w.location.short_code ?? w.location.name ?? String(w.location.id))]);
  if (w.suspended_at) pairs.push([md`Suspended`, md`${ago(w.suspended_at, view.now)}${w.suspension_reason ? md`: ${val(w.suspension_reason)}` : md``}`]);
  const name = w.name ?? w.uuid;
  const blocks: Block[] = [header(`Worker ${name}`), fields(pairs)];
  if (w.last_error) blocks.push(section(md`:warning: *Last error*\n${codeBlock(w.last_error)}`));
  blocks.push(context(md`uuid ${val(w.uuid)}`));
  const window = windowOver(view.maintenance, 'worker', w.uuid);
  if (window) blocks.push(context(maintenanceMark(window, view.now)));
  return { text: md`Worker ${val(name)}: ${val(w.status)}`, blocks };
}
