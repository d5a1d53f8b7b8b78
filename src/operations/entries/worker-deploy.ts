/**
 * `/cloud worker deploy`: deploy a worker from a git repository, a template or a database
 * (spec "Workers"). Spending: the first hour is charged against the balance, then usage is
 * billed. The precheck reads deploy-requirements and the worker locations and refuses, with the
 * numbers, what the cloud would refuse (balance, worker count, out-of-stock location, unknown
 * template) before anyone is asked.
 */
import type { CloudClient } from '../../cloud/cloud-client.js';
import { BUILD_PACKS, GIT_SOURCES } from '../../cloud/requests.js';
import type { Worker, WorkerLocation } from '../../cloud-api/schemas.js';
import { money } from '../../views/format.js';
import { join, md, val, type Mrkdwn } from '../../views/mrkdwn.js';
import { workerLocationLabel, workerLocationName } from '../../views/worker-views.js';
import { defineOperation } from '../define.js';
import type { ModalOption } from '../../views/modal-spec.js';
import { workerSeen } from '../remember.js';
import { args, B, BUILD_PACK_TEXT, deployBody, GIT_URL, isGit, maxOf, SOURCE_TEXT, TEMPLATE_ID, WITH_CREDENTIALS, type DeployArgs } from './worker-deploy-args.js';

export { deployBody };

/** Plain text, for option text and the facts (shown as a value). */
const locationName = (l: WorkerLocation) => workerLocationName(l);

const locationOptions = async ({ cloud }: { cloud: CloudClient }): Promise<ModalOption[]> =>
  (await cloud.workers.locations()).map((l) => ({ value: String(l.id), text: `${locationName(l)}${l.out_of_stock ? ' · OUT OF STOCK' : ''}` }));

const templateOptions = async ({ cloud }: { cloud: CloudClient }): Promise<ModalOption[]> =>
  (await cloud.workers.templates()).map((t) => ({ value: t.id, text: `${t.name ?? t.id}${t.type ? ` (${t.type})` : ''} · ${t.id}` }));

interface DeployFacts {
  credit?: number;
  minimumCredit?: number;
  workersUsed?: number;
  workersAllowed?: number;
  where?: string;
  templateName?: string | null;
  limits?: { cpu?: number | null; memory_mb?: number | null; disk_mb?: number | null } | null;
}

function sourceLine(a: Partial<DeployArgs>, f: DeployFacts): Mrkdwn | undefined {
  const branch = a.branch ? md`, branch ${val(a.branch)}` : md``;
  switch (a.source ?? (a.repo ? 'public' : undefined)) {
    case 'public':
      return a.repo ? md`From the public repository ${val(a.repo)}${branch}.` : undefined;
    case 'hosted_git':
      return a.repo
        ? md`From the private repository ${val(a.repo)}${branch} on the git hosting account linked to the cloud account (linking happens only in the provider’s panel).`
        : undefined;
    case 'template':
    case 'database':
      return a.template
        ? md`From ${a.source === 'template' ? md`template` : md`database`} ${val(a.template)}${f.templateName ? md` (${val(f.templateName)})` : md``}.`
        : undefined;
    default:
      return undefined;
  }
}

function buildLine(a: Partial<DeployArgs>): Mrkdwn | undefined {
  const parts = [
    a['build-pack'] && md`build pack ${val(a['build-pack'])}`,
    a.port && md`port ${val(a.port)}`,
    a['base-dir'] && md`base ${val(a['base-dir'])}`,
    a['publish-dir'] && md`publishes ${val(a['publish-dir'])}`,
    a.install && md`install ${val(a.install, 80)}`,
    a.build && md`build ${val(a.build, 80)}`,
    a.start && md`start ${val(a.start, 80)}`,
    a.spa === true && md`single-page app`,
  ].filter((p): p is Mrkdwn => !!p);
  return parts.length ? md`Build: ${join(parts, ' · ')}.` : undefined;
}

/** "a template" / "a database": the source kind in our own words. */
const kindOf = (source: string): Mrkdwn => (source === 'template' ? md`template` : source === 'database' ? md`database` : val(source));

export const workerDeploy = defineOperation({
  id: 'worker.deploy',
  summary: 'Deploy a worker from a git repository, template or database — charges the first hour',
  tier: 'billing',
  args,
  run: ({ cloud, signal }, a) => cloud.workers.deploy(deployBody(a), { signal }),
  remember: (w) => workerSeen(w),
  change: {
    confirm: true,
    check(a) {
      const errors: Record<string, string> = {};
      let source = a.source;
      let template = a.template;
      if (!source && template) {
        return { ok: false, fieldErrors: { source: 'say whether it is a template or a database (`--source template` or `--source database`)' } };
      }
      source ??= 'public';
      if (isGit(source)) {
        if (!a.repo) errors.repo = `a ${source} source needs the repository URL (https://… or git@host:owner/repo)`;
        else if (!GIT_URL.test(a.repo)) errors.repo = 'must be an http(s):// URL or git@host:owner/repo';
        // A URL's user:token would be shown in the channel's card and kept in the audit trail:
        // a private repository is a hosted_git source (the panel holds its access).
        else if (WITH_CREDENTIALS.test(a.repo)) errors.repo = 'must not carry credentials (user:token@); for a private repository use --source hosted_git';
        if (template) errors.template = `only for a template or database source, not ${source}`;
      } else {
        // `/cloud worker templates` suggests the template id as the repository: take it there too.
        if (!template && a.repo && TEMPLATE_ID.test(a.repo)) template = a.repo;
        else if (a.repo) errors.repo = `leave empty for a ${source} source; choose the ${source} instead`;
        if (!template) errors.template = `a ${source} source needs a ${source} id (see /cloud worker templates)`;
      }
      if (Object.keys(errors).length) return { ok: false, fieldErrors: errors };
      return { ok: true, args: { ...a, source, template: isGit(source) ? undefined : template, repo: isGit(source) ? a.repo : undefined } };
    },
    async precheck({ cloud, signal }, a) {
      const source = a.source ?? 'public';
      const [req, locations, templates] = await Promise.all([
        cloud.workers.requirements({ signal }),
        cloud.workers.locations({ signal }),
        isGit(source) ? Promise.resolve([]) : cloud.workers.templates({ signal }),
      ]);
      if (!req.sufficient) {
        return {
          refuse:
            md`The balance (${money(req.credit)}) is below the minimum of ${money(req.minimum_credit)} needed to deploy a worker: the first hour is charged against it. Top up the balance in the provider’s panel, then try again.`,
        };
      }
      if (req.workers_used >= req.workers_allowed) {
        return {
          refuse: md`The account already has ${req.workers_used} of the ${req.workers_allowed} workers its level allows. Remove a worker in the panel or raise the account level.`,
        };
      }
      const inStock = locations.filter((l) => !l.out_of_stock).map((l) => md`${workerLocationLabel(l)} (${val(l.id)})`);
      const others = inStock.length ? md` Locations with room: ${join(inStock, ', ')}.` : md` No location has room right now.`;
      const loc = locations.find((l) => l.id === a.location);
      if (!loc) return { refuse: md`Location ${val(a.location)} does not take workers.${others}` };
      if (loc.out_of_stock) return { refuse: md`${workerLocationLabel(loc)} (location ${loc.id}) is out of stock for workers right now.${others}` };
      let templateName: string | null = null;
      if (!isGit(source)) {
        const t = templates.find((x) => x.id === a.template);
        if (!t) return { refuse: md`The cloud has no ${kindOf(source)} ${val(a.template ?? '')}. \`/cloud worker templates\` lists them.` };
        if (t.type && t.type !== source) {
          return { refuse: md`${val(t.id)}${t.name ? md` (${val(t.name)})` : md``} is a ${kindOf(t.type)}, not a ${kindOf(source)}: use ${val(`--source ${t.type}`)}.` };
        }
        templateName = t.name ?? null;
      }
      const facts: DeployFacts = {
        credit: req.credit,
        minimumCredit: req.minimum_credit,
        workersUsed: req.workers_used,
        workersAllowed: req.workers_allowed,
        where: locationName(loc),
        templateName,
        limits: req.limits ?? null,
      };
      return { facts: { ...facts } };
    },
    describe: (a, facts) => {
      const f = facts as DeployFacts;
      // The id first, as the dry run (no facts) names it; the cloud's name after it once known.
      const name = typeof f.where === 'string' ? md` (${val(f.where)})` : md``;
      const where = typeof a.location === 'number' ? md`location ${a.location}${name}` : typeof f.where === 'string' ? val(f.where) : undefined;
      const title = a.name ? md`Deploy worker ${val(a.name)}${where ? md` in ${where}` : md``}` : md`Deploy a worker`;
      const lines = [sourceLine(a, f), buildLine(a)].filter((l): l is Mrkdwn => !!l);
      if (typeof f.credit === 'number' && typeof f.minimumCredit === 'number') {
        lines.push(md`First hour charged against the balance: minimum ${money(f.minimumCredit)}, balance ${money(f.credit)}. After that, usage is billed as measured.`);
      }
      if (typeof f.workersUsed === 'number' && typeof f.workersAllowed === 'number') {
        lines.push(md`Workers: ${f.workersUsed} of ${f.workersAllowed} used; ${Math.max(0, f.workersAllowed - f.workersUsed - 1)} left after this.`);
      }
      const l = f.limits;
      const n = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
      if (l && (n(l.cpu) || n(l.memory_mb) || n(l.disk_mb))) {
        const parts = [n(l.cpu) && md`${l.cpu} CPU`, n(l.memory_mb) && md`${l.memory_mb} MB memory`, n(l.disk_mb) && md`${l.disk_mb} MB disk`].filter(
          (p): p is Mrkdwn => !!p,
        );
        lines.push(md`The new worker gets ${join(parts, ', ')}; it builds in the background.`);
      }
      return { title, lines };
    },
    bodyToArg: {
      location_id: 'location',
      git_source: 'source',
      git_repository: 'repo',
      git_branch: 'branch',
      build_pack: 'build-pack',
      ports_exposes: 'port',
      base_directory: 'base-dir',
      publish_directory: 'publish-dir',
      install_command: 'install',
      build_command: 'build',
      start_command: 'start',
      is_spa: 'spa',
    },
    // Follow the build to its end: thread updates, the final state broadcast once.
    watch: (w) => ({ kind: 'worker', resource: w.uuid }),
    outputs: (w: Worker) => ({ worker_uuid: w.uuid, ...(w.fqdn ? { fqdn: w.fqdn } : {}) }),
    summarize: (w: Worker, a) => ({
      text: md`Worker ${val(w.name ?? a.name)} is deployed (${val(w.status)})${w.fqdn ? md` at ${val(w.fqdn)}` : md``} and builds in the background. ${val(
        `/cloud worker status ${w.uuid}`,
      )} shows how it is doing.`,
      details: {
        name: w.name ?? a.name,
        uuid: w.uuid,
        fqdn: w.fqdn ?? '—',
        status: w.status,
        ...(w.location?.short_code ? { location: w.location.short_code } : {}),
      },
    }),
    modal: {
      title: 'Deploy worker',
      submit: 'Continue',
      whenBare: true,
      fields: [
        { name: 'location', label: 'Location', kind: 'select', options: locationOptions, hint: 'Out-of-stock locations cannot take a worker now.' },
        { name: 'name', label: 'Name', kind: 'text', maxLength: maxOf(B.name), placeholder: 'my-app' },
        { name: 'source', label: 'Source', kind: 'select', options: GIT_SOURCES.map((s) => ({ value: s, text: SOURCE_TEXT[s] })) },
        {
          name: 'repo',
          label: 'Repository URL',
          kind: 'text',
          // Optional to Slack (a template needs none); the hint says when it is required, and the check refuses it missing then.
          optional: true,
          checkAsAnswered: true,
          maxLength: maxOf(B.git_repository),
          placeholder: 'https://github.com/acme/app.git',
          hint: 'Required for a git source (public or private repository); leave empty for a template or database. A private one needs a git hosting account linked in the provider’s panel.',
        },
        { name: 'template', label: 'Template or database', kind: 'select', optional: true, options: templateOptions, hint: 'For a template or database source.' },
        { name: 'branch', label: 'Branch', kind: 'text', optional: true, maxLength: maxOf(B.git_branch), placeholder: 'main' },
        { name: 'build-pack', label: 'Build pack', kind: 'select', optional: true, options: BUILD_PACKS.map((p) => ({ value: p, text: BUILD_PACK_TEXT[p] })) },
        { name: 'port', label: 'Port', kind: 'text', optional: true, maxLength: maxOf(B.ports_exposes), placeholder: '3000' },
        { name: 'base-dir', label: 'Base directory', kind: 'text', optional: true, maxLength: maxOf(B.base_directory), placeholder: '/' },
        { name: 'publish-dir', label: 'Publish directory', kind: 'text', optional: true, maxLength: maxOf(B.publish_directory), placeholder: 'dist' },
        { name: 'install', label: 'Install command', kind: 'multiline', optional: true, maxLength: maxOf(B.install_command), placeholder: 'npm ci' },
        { name: 'build', label: 'Build command', kind: 'multiline', optional: true, maxLength: maxOf(B.build_command), placeholder: 'npm run build' },
        { name: 'start', label: 'Start command', kind: 'multiline', optional: true, maxLength: maxOf(B.start_command), placeholder: 'npm start' },
        { name: 'spa', label: 'Single-page app: send unknown paths to the index', kind: 'checkbox', optional: true },
      ],
    },
  },
});

/** This file's catalog entries (src/operations/index.ts lists each file's array once). */
export const WORKER_DEPLOY = [workerDeploy];
