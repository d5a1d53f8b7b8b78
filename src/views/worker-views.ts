/** Views of workers: deploy requirements, locations, templates, status. */
import type { DeployRequirements, Worker, WorkerLocation, WorkerTemplate } from '../cloud/schemas.js';
import type { Block, Reply, ViewContext } from '../operations/types.js';
import { code, context, esc, fields, header, lineSections, section } from './blocks.js';
import { ago, money, orDash } from './format.js';

export function buildRequirements(r: DeployRequirements): Reply {
  const ok = r.sufficient && r.workers_used < r.workers_allowed;
  const limits = r.limits ? [r.limits.cpu != null ? `${r.limits.cpu} CPU` : null, r.limits.memory_mb != null ? `${r.limits.memory_mb} MB RAM` : null, r.limits.disk_mb != null ? `${r.limits.disk_mb} MB disk` : null].filter(Boolean).join(' · ') : '';
  return {
    text: ok ? 'A worker can be deployed now.' : 'A worker cannot be deployed now.',
    blocks: [
      header('Worker deploy requirements'),
      fields([
        ['Balance', `${money(r.credit)} ${r.sufficient ? ':white_check_mark:' : ':x:'}`],
        ['Minimum to deploy', money(r.minimum_credit)],
        ['Workers', `${r.workers_used} of ${r.workers_allowed} ${r.workers_used < r.workers_allowed ? ':white_check_mark:' : ':x: limit reached'}`],
        ['New worker limits', limits || '—'],
      ]),
      context(ok ? 'Deploying charges the first hour against the balance.' : 'Top up the balance or free a worker slot before deploying.'),
    ],
  };
}

export function buildLocations(locations: WorkerLocation[]): Reply {
  if (locations.length === 0) return { text: 'No worker locations.', blocks: [section('The cloud lists no worker locations.')] };
  const lines = locations.map((l) => {
    const name = [l.short_code, l.name ?? l.description].filter(Boolean).map((v) => esc(String(v))).join(' — ');
    return `• ${code(l.id)} ${name}${l.out_of_stock ? ' · :no_entry: out of stock' : ''}`;
  });
  return { text: `${locations.length} worker locations`, blocks: [header('Worker locations'), ...lineSections(lines, 48)] };
}

export function buildTemplates(templates: WorkerTemplate[]): Reply {
  if (templates.length === 0) return { text: 'No worker templates.', blocks: [section('The cloud lists no worker templates.')] };
  const lines = templates.map(
    (t) => `• ${code(t.id)} *${esc(t.name)}*${t.type ? ` (${esc(t.type)})` : ''}${t.description ? ` — ${esc(t.description)}` : ''}`,
  );
  return {
    text: `${templates.length} worker templates`,
    blocks: [
      header('Worker templates'),
      ...lineSections(lines, 47),
      context('Deploy one with `--source template` (or `database`) and the template id as the repository.'),
    ],
  };
}

const STATUS_ICON: Record<string, string> = {
  active: ':large_green_circle:',
  pending: ':hourglass_flowing_sand:',
  failed: ':x:',
  suspended: ':double_vertical_bar:',
};

export function buildWorkerStatus(w: Worker, view: ViewContext): Reply {
  const pairs: [string, string][] = [
    ['Status', `${STATUS_ICON[w.status] ?? ''} ${esc(w.status)}`.trim()],
    ['Last deployment', `${orDash(w.last_deployment_status && esc(w.last_deployment_status))}${w.last_deployment_at ? ` (${ago(w.last_deployment_at, view.now)})` : ''}`],
    ['Runtime', `${orDash(w.runtime_status && esc(w.runtime_status))}${w.runtime_status_at ? ` (${ago(w.runtime_status_at, view.now)})` : ''}`],
    ['Address', w.fqdn ? `<https://${esc(w.fqdn)}|${esc(w.fqdn)}>` : '—'],
  ];
  if (w.git_repository) pairs.push(['Source', `${esc(w.git_source ?? 'git')}: ${code(w.git_repository)}${w.git_branch ? ` @ ${code(w.git_branch)}` : ''}`]);
  if (w.location) pairs.push(['Location', esc(w.location.short_code ?? w.location.name ?? String(w.location.id))]);
  if (w.suspended_at) pairs.push(['Suspended', `${ago(w.suspended_at, view.now)}${w.suspension_reason ? `: ${esc(w.suspension_reason)}` : ''}`]);
  const blocks: Block[] = [header(`Worker ${w.name ?? w.uuid}`), fields(pairs)];
  if (w.last_error) blocks.push(section(`:warning: *Last error*\n\`\`\`${esc(w.last_error).replace(/```/g, "'''")}\`\`\``));
  blocks.push(context(`uuid ${code(w.uuid)}`));
  return { text: `Worker ${w.name ?? w.uuid}: ${w.status}`, blocks };
}
