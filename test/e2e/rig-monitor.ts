/**
 * The monitor's part of the rig (issue 13): its settings and test overrides as one option,
 * split into what createRuntime takes as settings and as overrides. Kept out of bot-rig.ts
 * so that file stays small.
 */
import type { RuntimeOverrides } from '../../src/runtime.js';
import type { RuntimeSettings } from '../../src/runtime-types.js';

/** `monitorLoop: false`: the monitor only runs when a test calls `rig.bot.monitor.tick()`. */
export type RigMonitorOptions = NonNullable<RuntimeSettings['monitor']> & Pick<RuntimeOverrides, 'monitorLoop' | 'monitorRecheckMs' | 'postSpacingMs'>;

export function monitorParts(o: RigMonitorOptions | undefined): { settings: Pick<RuntimeSettings, 'monitor'>; overrides: RuntimeOverrides } {
  if (!o) return { settings: {}, overrides: {} };
  const { monitorLoop, monitorRecheckMs, postSpacingMs, ...monitor } = o;
  const overrides: RuntimeOverrides = {
    ...(monitorLoop !== undefined ? { monitorLoop } : {}),
    ...(monitorRecheckMs !== undefined ? { monitorRecheckMs } : {}),
    ...(postSpacingMs !== undefined ? { postSpacingMs } : {}),
  };
  return { settings: { monitor }, overrides };
}
