/**
 * The fake Slack's functions.completeSuccess / completeError answer as Slack does (issue 23):
 * required arguments, an execution never started, one already ended, and outputs that do not
 * match the step's output_parameters in manifest.yml. Called through @slack/web-api's own client.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFakeSlack, type FakeSlack } from '../rig/fake-slack.js';
import { slackError, webClient, type WebClient } from './web-client.js';

describe('fake Slack: workflow step completions', () => {
  let slack: FakeSlack;
  let client: WebClient;
  beforeAll(async () => {
    slack = await createFakeSlack();
    client = webClient(slack.url);
  });
  afterAll(() => slack.close());

  it('completes a running execution once; a second completion of either kind is execution_not_in_running_state', async () => {
    slack.executions.start('Fx1', 'server_status');
    await client.functions.completeSuccess({ function_execution_id: 'Fx1', outputs: { power_state: 'running', status: 'ready' } });
    expect(slack.executions.get('Fx1')).toMatchObject({ state: 'completed', outputs: { power_state: 'running', status: 'ready' } });
    await slackError(client.functions.completeError({ function_execution_id: 'Fx1', error: 'again' }), 'execution_not_in_running_state');
    slack.executions.start('Fx2', 'backup_create');
    await client.functions.completeError({ function_execution_id: 'Fx2', error: 'Cancelled.' });
    expect(slack.executions.get('Fx2')).toMatchObject({ state: 'failed', error: 'Cancelled.' });
  });

  it('an execution Slack never started is function_execution_not_found; missing arguments are refused', async () => {
    await slackError(client.functions.completeSuccess({ function_execution_id: 'FxNOPE', outputs: {} }), 'function_execution_not_found');
    slack.executions.start('Fx3', 'server_status');
    await slackError(client.apiCall('functions.completeError', { function_execution_id: 'Fx3' }), 'invalid_arguments');
    await slackError(client.apiCall('functions.completeSuccess', { function_execution_id: 'Fx3' }), 'invalid_arguments');
    expect(slack.executions.get('Fx3')!.state).toBe('running');
  });

  it('outputs must match the manifest: undeclared, missing required or mistyped ones are parameter_validation_failed', async () => {
    slack.executions.start('Fx4', 'server_status');
    await slackError(client.functions.completeSuccess({ function_execution_id: 'Fx4', outputs: { power_state: 'running' } }), 'parameter_validation_failed');
    await slackError(client.functions.completeSuccess({ function_execution_id: 'Fx4', outputs: { power_state: 'running', status: 'ready', extra: 'x' } }), 'parameter_validation_failed');
    slack.executions.start('Fx5', 'ip_reserve');
    await slackError(client.functions.completeSuccess({ function_execution_id: 'Fx5', outputs: { addresses: '192.0.2.1', count: '1' } }), 'parameter_validation_failed');
    await client.functions.completeSuccess({ function_execution_id: 'Fx5', outputs: { addresses: '192.0.2.1', count: 1 } });
    // Optional outputs may be left out (a worker without an address yet).
    slack.executions.start('Fx6', 'worker_deploy');
    await client.functions.completeSuccess({ function_execution_id: 'Fx6', outputs: { worker_uuid: 'u' } });
  });
});
