/**
 * functions.completeSuccess and functions.completeError (issue 23), as Slack answers them: an
 * execution Slack never started is `function_execution_not_found`, one already completed or
 * failed is `execution_not_in_running_state`, and outputs that do not match the step's
 * `output_parameters` in manifest.yml (an undeclared name, a required one missing, a value of
 * the wrong type) are `parameter_validation_failed`. Errors from Slack's method reference.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { fail, ok, str, type MethodHandler } from './fake-slack-context.js';
import { isObject } from './json.js';
import { MANIFEST_URL } from './manifest-scopes.js';

export const FUNCTION_ERRORS = ['execution_not_in_running_state', 'function_execution_not_found', 'parameter_validation_failed'];

type Declared = Record<string, { type: string; is_required?: boolean }>;

function manifestOutputs(): Record<string, Declared> {
  const m: unknown = parse(readFileSync(MANIFEST_URL, 'utf8'));
  const fns = isObject(m) && isObject(m.functions) ? m.functions : {};
  return Object.fromEntries(Object.entries(fns).map(([id, f]) => [id, (isObject(f) && isObject(f.output_parameters) ? f.output_parameters : {}) as Declared]));
}

const OUTPUTS = manifestOutputs();

function outputProblems(callbackId: string, outputs: Record<string, unknown>): string[] {
  const declared = OUTPUTS[callbackId] ?? {};
  const problems: string[] = [];
  for (const [name, value] of Object.entries(outputs)) {
    const d = declared[name];
    if (!d) problems.push(`[ERROR] output ${name} is not declared`);
    else if (d.type === 'integer' ? !Number.isInteger(value) : typeof value !== 'string') problems.push(`[ERROR] output ${name} must be ${d.type}`);
  }
  for (const [name, d] of Object.entries(declared)) if (d.is_required && outputs[name] === undefined) problems.push(`[ERROR] missing required output: ${name}`);
  return problems;
}

const complete =
  (how: 'success' | 'error'): MethodHandler =>
  (params, { model }) => {
    const id = str(params.function_execution_id) ?? '';
    const execution = model.executions.get(id);
    if (!execution) return fail('function_execution_not_found');
    if (execution.state !== 'running') return fail('execution_not_in_running_state');
    if (how === 'success') {
      let outputs: unknown = params.outputs;
      if (typeof outputs === 'string') {
        try {
          outputs = JSON.parse(outputs);
        } catch {
          return fail('invalid_arguments', { response_metadata: { messages: ['[ERROR] outputs must be a JSON object'] } });
        }
      }
      if (!isObject(outputs)) return fail('invalid_arguments', { response_metadata: { messages: ['[ERROR] outputs must be a JSON object'] } });
      const problems = outputProblems(execution.callbackId, outputs);
      if (problems.length) return fail('parameter_validation_failed', { response_metadata: { messages: problems } });
      execution.state = 'completed';
      execution.outputs = outputs;
    } else {
      execution.state = 'failed';
      execution.error = String(params.error);
    }
    return ok();
  };

export const functionMethods: Record<string, MethodHandler> = {
  'functions.completeSuccess': complete('success'),
  'functions.completeError': complete('error'),
};
