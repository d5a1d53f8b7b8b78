/**
 * `/cloud worker deploy` end to end: a spending change. The status message shows the balance
 * against the first-hour minimum and the worker slots; Confirm sends exactly one POST; what
 * deploy-requirements and the locations already say no to is refused before asking, and the
 * cloud's own refusals after Confirm read with their numbers and next step.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { viewSubmissionPayload } from '../rig/payloads.js';
import { waitFor } from '../rig/wait-for.js';
import { ALICE, OPS_CHANNEL } from '../rig/workspace.js';
import { rigHelpers, startBotRig, visibleText, type BotRig } from './bot-rig.js';

type State = BotRig['sandbox']['state'];
let rig: BotRig;
const { text, latest, until, refusedBeforeAsking } = rigHelpers(() => rig);
let pristine: string;
const restore = () => {
  const s = JSON.parse(pristine) as Pick<State, 'account' | 'workers' | 'locations' | 'workerTemplates'>;
  const state = rig.sandbox.state;
  Object.assign(state.account, s.account);
  state.workers.splice(0, Infinity, ...s.workers);
  state.locations.splice(0, Infinity, ...s.locations);
  state.workerTemplates.splice(0, Infinity, ...s.workerTemplates);
};

beforeAll(async () => {
  rig = await startBotRig();
  const { account, workers, locations, workerTemplates } = rig.sandbox.state;
  pristine = JSON.stringify({ account, workers, locations, workerTemplates });
});
afterEach(restore);
afterAll(async () => {
  await rig.close();
  expect(rig.slack.violations).toEqual([]);
});

const REPO = 'https://github.com/acme/api.git';
const posts = (from: number) => rig.mutations(from).map((r) => ({ method: r.method, path: r.rawPath, body: r.body }));

async function ask(command: string) {
  const from = rig.sandbox.requests.length;
  const before = Date.now();
  await rig.sendCommand(command);
  const msg = await rig.statusMessage(OPS_CHANNEL.id, before);
  expect(text(msg)).toContain('awaiting confirmation');
  expect(rig.mutations(from)).toEqual([]);
  return { from, msg };
}

/** Sends the command; resolves with the change form it opened, once its choices are loaded. */
async function openForm(command: string) {
  const n = rig.slack.views.all().length;
  await rig.sendCommand(command);
  return waitFor(() => {
    const v = rig.slack.views.all()[n];
    return v && v.view.callback_id === 'cloud_change' && JSON.stringify(v.view.blocks).includes('"block_id":"template"') ? v : undefined;
  }, { timeoutMs: 5000 });
}

describe('worker deploy with flags', () => {
  it('shows credit and worker slots, sends one exact POST on Confirm, and shows name, uuid and fqdn', async () => {
    const { from, msg } = await ask(
      `worker deploy --name api-1 --location 1 --repo ${REPO} --branch main --build-pack container_file --port 3000 ` +
        '--base-dir / --install "npm ci" --build "npm run build" --start "node server.js" --spa',
    );
    const asked = text(msg);
    expect(asked).toContain('Deploy worker `api-1` in location 1 (`AMS — Amsterdam`)* — awaiting confirmation');
    expect(asked).toContain(`From the public repository \`${REPO}\`, branch \`main\`.`);
    expect(asked).toContain('First hour charged against the balance: minimum 5.00, balance 42.50.');
    expect(asked).toContain('Workers: 1 of 3 used; 1 left after this.');
    const reads = rig.sandbox.requests.slice(from).map((r) => `${r.method} ${r.path}`);
    expect(reads.sort()).toEqual(['GET /workers/deploy-requirements', 'GET /workers/locations']);

    await rig.click(msg, 'op_confirm', ALICE.id);
    // The deploy was accepted; the worker still builds, so the message is not headed "done".
    const done = await until(msg, '— building');
    expect(text(done)).not.toContain('— done');
    const body = {
      location_id: 1, name: 'api-1', git_source: 'public', git_repository: REPO, git_branch: 'main', build_pack: 'container_file',
      ports_exposes: '3000', base_directory: '/', install_command: 'npm ci', build_command: 'npm run build', start_command: 'node server.js', is_spa: true,
    };
    expect(posts(from)).toEqual([{ method: 'POST', path: '/v2/workers', body }]);
    const w = rig.sandbox.state.workers.at(-1)!;
    const fqdn = `api-1-${w.uuid.slice(0, 8)}.workers.example.net`;
    const shown = text(done);
    expect(shown).toContain(`Worker \`api-1\` is deployed (\`pending\`) at \`${fqdn}\``);
    expect(shown).toContain(`*uuid*\n\`${w.uuid}\``);
    expect(shown).toContain(`*fqdn*\n\`${fqdn}\``);
    expect(shown).toContain('sent `POST /workers`');
  });

  it('--dry-run shows the exact body and sends nothing; a template id is sent as git_repository', async () => {
    for (const cmd of ['worker deploy --name shop --location 2 --source template --template tpl-nextjs --dry-run', 'worker deploy --name shop --location 2 --source template --repo tpl-nextjs --dry-run']) {
      const r = await rig.command(cmd);
      const shown = visibleText(r.final);
      expect(shown, cmd).toContain('Dry run — nothing was sent.');
      expect(shown, cmd).toContain('`POST /workers`');
      expect(shown, cmd).toContain(JSON.stringify({ location_id: 2, name: 'shop', git_source: 'template', git_repository: 'tpl-nextjs' }, null, 2));
      expect(r.cloudRequests, cmd).toEqual([]);
    }
  });

  it('inputs that cannot go together are refused before any request', async () => {
    for (const [cmd, said] of [
      ['worker deploy --name a --location 1', '`--repo`: a public source needs the repository URL'],
      ['worker deploy --name a --location 1 --repo ftp://example.com/x', '`--repo`: must be an http(s):// URL or git@host:owner/repo'],
      ['worker deploy --name a --location 1 --repo https://deploy:ghp_s3cr3tT0ken@github.com/acme/shop', '`--repo`: must not carry credentials (user:token@)'],
      ['worker deploy --name a --location 1 --source hosted_git --repo https://ghp_s3cr3tT0ken@github.com/acme/shop', '`--repo`: must not carry credentials'],
      ['worker deploy --name a --location 1 --template tpl-astro', '`--source`: say whether it is a template or a database'],
      ['worker deploy --name a --location 1 --source database', '`--template`: a database source needs a database id'],
      [`worker deploy --name a --location 1 --port ${'1'.repeat(65)} --repo ${REPO}`, '`--port`: must be at most 64 characters'],
      [`worker deploy --name ${'n'.repeat(192)} --location 1 --repo ${REPO}`, '`--name`: must be at most 191 characters'],
      [`worker deploy --name a --location 1 --source gitlab --repo ${REPO}`, '`--source`: must be one of public, hosted_git, template, database'],
    ] as const) {
      const r = await rig.command(cmd);
      expect(visibleText(r.final), cmd).toContain(said);
      expect(visibleText(r.final), cmd).not.toContain('ghp_s3cr3tT0ken');
      expect(r.cloudRequests, cmd).toEqual([]);
    }
  });
});

describe('worker deploy through the form', () => {
  it('opens loading, then lists locations (out of stock marked) and templates; the submission leads to one exact POST', async () => {
    const opened = rig.slack.callsTo('views.open').length;
    const from = rig.sandbox.requests.length;
    const before = Date.now();
    const form = await openForm('worker deploy');
    expect(rig.slack.callsTo('views.open')).toHaveLength(opened + 1);
    expect(JSON.stringify(rig.slack.callsTo('views.open').at(-1)!.params)).toContain('Reading the choices from the cloud');
    const shown = visibleText({ blocks: form.view.blocks as unknown[] });
    expect(shown).toContain('NYC — New York · OUT OF STOCK');
    expect(shown).toMatch(/AMS — Amsterdam\n/);
    expect(shown).toContain('Next.js (template) · tpl-nextjs');
    expect(shown).toContain('PostgreSQL 16 (database) · db-postgresql-16');

    const res = await rig.send.interaction(
      viewSubmissionPayload({
        view: { ...form.view, id: form.id },
        values: { location: '2', name: 'shop', source: 'template', template: 'tpl-nextjs', 'build-pack': 'static', 'publish-dir': 'out', spa: ['true'] },
        userId: ALICE.id,
      }),
    );
    expect(res.status).toBe(200);
    expect(res.text).toBe('');
    const msg = await rig.statusMessage(OPS_CHANNEL.id, before);
    expect(text(msg)).toContain('Deploy worker `shop` in location 2 (`FRA — Frankfurt`)');
    expect(text(msg)).toContain('From template `tpl-nextjs` (`Next.js`).');
    await rig.click(msg, 'op_confirm', ALICE.id);
    await until(msg, '— building');
    expect(posts(from)).toEqual([
      {
        method: 'POST',
        path: '/v2/workers',
        body: { location_id: 2, name: 'shop', git_source: 'template', git_repository: 'tpl-nextjs', build_pack: 'static', publish_directory: 'out', is_spa: true },
      },
    ]);
  });

  it('field errors land on the right blocks and nothing is sent', async () => {
    const form = await openForm('worker deploy');
    const from = rig.sandbox.requests.length;
    const submit = async (values: Record<string, string | string[]>) =>
      (await rig.send.interaction(viewSubmissionPayload({ view: { ...form.view, id: form.id }, values, userId: ALICE.id }))).json;
    expect(await submit({ location: '1', source: 'public', repo: REPO })).toEqual({ response_action: 'errors', errors: { name: 'is required' } });
    expect(await submit({ location: '1', name: 'a', source: 'public' })).toEqual({
      response_action: 'errors',
      errors: { repo: 'a public source needs the repository URL (https://… or git@host:owner/repo)' },
    });
    const git = { location: '1', name: 'a', source: 'public', repo: REPO };
    expect(await submit({ ...git, port: '3'.repeat(65) })).toEqual({ response_action: 'errors', errors: { port: 'must be at most 64 characters' } });
    expect(await submit({ ...git, port: '70000' })).toEqual({ response_action: 'errors', errors: { port: 'ports are numbers from 1 to 65535' } });
    expect(await submit({ location: '1', name: 'a', source: 'database', repo: REPO })).toEqual({
      response_action: 'errors',
      errors: { repo: 'leave empty for a database source; choose the database instead', template: 'a database source needs a database id (see /cloud worker templates)' },
    });
    expect(rig.sandbox.requests.length).toBe(from);
  });

  it('with no location to choose, the error for it lands on a field the form shows (Slack refuses others) and nothing is sent', async () => {
    rig.sandbox.state.locations.splice(0, Infinity);
    const form = await openForm('worker deploy');
    expect(visibleText({ blocks: form.view.blocks as unknown[] })).toContain('Location');
    const inputs = (form.view.blocks as { type: string; block_id?: string }[]).filter((b) => b.type === 'input').map((b) => b.block_id);
    expect(inputs).not.toContain('location');
    const from = rig.sandbox.requests.length;
    const res = await rig.send.interaction(viewSubmissionPayload({ view: { ...form.view, id: form.id }, values: { name: 'a', source: 'public', repo: REPO }, userId: ALICE.id }));
    expect(res.json).toEqual({ response_action: 'errors', errors: { [inputs[0]!]: 'location: the cloud offers no choices right now' } });
    expect(rig.sandbox.requests.length).toBe(from);
  });

  it('missing flags open the form prefilled with what was typed', async () => {
    const form = await openForm(`worker deploy --repo ${REPO} --spa`);
    const blocks = form.view.blocks as { block_id?: string; element?: { initial_value?: string; initial_options?: unknown[] } }[];
    expect(blocks.find((b) => b.block_id === 'repo')?.element?.initial_value).toBe(REPO);
    expect(blocks.find((b) => b.block_id === 'spa')?.element?.initial_options).toHaveLength(1);
  });

  it('a typed value longer than its field is refused at once, before any form opens; on the form it is checked on submit', async () => {
    const opened = rig.slack.calls.filter((c) => c.method === 'views.open').length;
    const r = await rig.command(`worker deploy --port ${'8'.repeat(70)}`);
    expect(visibleText(r.final)).toContain('`--port`: must be at most 64 characters');
    expect(rig.slack.calls.filter((c) => c.method === 'views.open')).toHaveLength(opened);
    expect(r.cloudRequests).toEqual([]);

    const form = await openForm('worker deploy');
    const submit = async (values: Record<string, string>) =>
      (await rig.send.interaction(viewSubmissionPayload({ view: { ...form.view, id: form.id }, values, userId: ALICE.id }))).json;
    const base = { location: '1', name: 'a', source: 'public', repo: REPO };
    const from = rig.sandbox.requests.length;
    expect(await submit({ ...base, port: '8'.repeat(70) })).toEqual({ response_action: 'errors', errors: { port: 'must be at most 64 characters' } });
    expect(rig.mutations(from)).toEqual([]);
  });
});

describe('refused before asking (numbers in the text, no POST)', () => {
  const refused = (cmd: string) => refusedBeforeAsking(cmd);

  it('a balance below the first-hour minimum', async () => {
    rig.sandbox.state.account.balance = 1;
    expect(await refused(`worker deploy --name a --location 1 --repo ${REPO}`)).toContain('The balance (1.00) is below the minimum of 5.00 needed to deploy a worker');
  });

  it('no worker slot left', async () => {
    rig.sandbox.state.account.workersAllowed = 1;
    expect(await refused(`worker deploy --name a --location 1 --repo ${REPO}`)).toContain('The account already has 1 of the 1 workers its level allows.');
  });

  it('an out-of-stock location (3), naming the ones with room', async () => {
    const shown = await refused(`worker deploy --name a --location 3 --repo ${REPO}`);
    expect(shown).toContain('`NYC — New York` (location 3) is out of stock for workers right now. Locations with room: `AMS — Amsterdam` (`1`), `FRA — Frankfurt` (`2`).');
  });

  it('a location that takes no workers, and templates that do not fit', async () => {
    expect(await refused(`worker deploy --name a --location 4 --repo ${REPO}`)).toContain('Location `4` does not take workers.');
    expect(await refused('worker deploy --name a --location 1 --source template --template db-redis-7')).toContain(
      '`db-redis-7` (`Redis 7`) is a database, not a template: use `--source database`.',
    );
    expect(await refused('worker deploy --name a --location 1 --source template --template tpl-nope')).toContain('The cloud has no template `tpl-nope`.');
  });
});

describe('refused by the cloud after Confirm (one POST, the words on the message)', () => {
  const failed = async (cmd: string, change: (s: State) => void) => {
    const { from, msg } = await ask(cmd);
    change(rig.sandbox.state); // the precheck passed; the account changes before the click
    await rig.click(msg, 'op_confirm', ALICE.id);
    const m = await until(msg, '— failed');
    expect(rig.mutations(from)).toHaveLength(1);
    return text(m);
  };
  const deploy = `worker deploy --name a --location 1 --repo ${REPO}`;

  it('INSUFFICIENT_BALANCE: balance and minimum', async () => {
    const shown = await failed(deploy, (s) => void (s.account.balance = 1));
    expect(shown).toContain('The account balance does not cover the first hour (balance 1, needed 5).');
    expect(shown).toContain('`INSUFFICIENT_BALANCE`');
  });

  it('WORKER_LIMIT_REACHED: used of allowed', async () => {
    const shown = await failed(deploy, (s) => void (s.account.workersAllowed = 1));
    expect(shown).toContain('The account already has as many workers as its level allows (1 of 1).');
  });

  it('WORKERS_DISABLED', async () => {
    const shown = await failed(deploy, (s) => void (s.account.workersEnabled = false));
    expect(shown).toContain('The provider has worker sales switched off right now.');
    expect(shown).toContain('`WORKERS_DISABLED`');
  });

  it('LOCATION_UNAVAILABLE: the location ran out of stock in the meantime', async () => {
    const shown = await failed(deploy, (s) => void (s.locations.find((l) => l.id === 1)!.workersOutOfStock = true));
    expect(shown).toContain('That location cannot take new workers right now.');
    expect(shown).toContain('`/cloud worker locations` marks the ones out of stock');
  });

  it('GIT_HOST_NOT_CONNECTED: says that linking happens in the panel', async () => {
    const shown = await failed('worker deploy --name a --location 1 --source hosted_git --repo git@github.com:acme/private.git', () => {});
    expect(shown).toContain('No git hosting account is linked to the cloud account');
    expect(shown).toContain('Link one in the provider’s panel (it cannot be done through the API or from Slack)');
  });

  it('VALIDATION_ERROR: the template disappeared in the meantime; the field is named', async () => {
    const shown = await failed('worker deploy --name a --location 1 --source template --template tpl-astro', (s) => {
      s.workerTemplates.splice(s.workerTemplates.findIndex((t) => t.id === 'tpl-astro'), 1);
    });
    expect(shown).toContain('The cloud rejected some of the input.');
    expect(shown).toContain('`git_repository`: `The git repository must be the id of a template');
  });
});
