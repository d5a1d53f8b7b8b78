/**
 * The alert-scale section's load (bench/alert-scale.ts): its sizes and schedule, and the plan
 * drawn from the seeded PRNG — which servers go off and on again ("held"), which flap, when, and
 * the worker builds to deploy. The draws happen in a fixed order, so every run gets the same plan.
 */

export const SERVERS = 250;
export const CHANNELS = 100;
export const CHANNELS_PER_SERVER = 4;
export const WATCHES = 1_000;
export const MONITOR_INTERVAL_MS = 60_000;
export const HOLD_POLLS = 2;
export const RECHECK_MS = 1_000;
export const WATCH_INTERVAL_MS = 10_000;
export const PER_MINUTE = 6_600;
export const HELD = 60;
export const FLAPS = 30;
export const CHANGES_FROM_MS = 70_000;
export const CHANGES_UNTIL_MS = 250_000;
export const DEPLOY_WINDOW_MS = 30_000;
export const BUILD_MIN_MS = 60_000;
export const BUILD_MAX_MS = 300_000;
export const STEP_MS = 250;
export const CLOUD_LATENCY_MS = 2;

export const channelId = (c: number) => `CALRT${String(c).padStart(5, '0')}`;

/** Held changes and flaps on distinct random servers, at random step-aligned instants; then the deploys. */
export function alertPlan(random: () => number, servers: readonly string[], t0: number) {
  const order = servers.map((s) => ({ s, r: random() })).sort((a, b) => a.r - b.r).map((x) => x.s);
  const at = () => t0 + CHANGES_FROM_MS + Math.floor((random() * (CHANGES_UNTIL_MS - CHANGES_FROM_MS)) / STEP_MS) * STEP_MS;
  const held = order.slice(0, HELD).map((server) => {
    const offAt = at();
    return { server, offAt, onAt: offAt + 60_000 + Math.floor(random() * 240) * STEP_MS };
  });
  const heldBy = new Map(held.map((h) => [h.server, h]));
  const flaps = order.slice(HELD, HELD + FLAPS).map((server) => ({ server, at: at() }));
  const events = [
    ...held.flatMap((h) => [
      { at: h.offAt, req: { type: 'power', server: h.server, state: 'off' } as const },
      { at: h.onAt, req: { type: 'power', server: h.server, state: 'on' } as const },
    ]),
    ...flaps.map((f) => ({ at: f.at, req: { type: 'flap', server: f.server } as const })),
  ].sort((a, b) => a.at - b.at);
  const endAfter = Math.max(...events.map((e) => e.at)) + MONITOR_INTERVAL_MS + 10_000;
  const deploys = Array.from({ length: WATCHES }, (_, i) => ({
    i,
    at: t0 + Math.floor(random() * DEPLOY_WINDOW_MS),
    buildMs: BUILD_MIN_MS + Math.floor(random() * (BUILD_MAX_MS - BUILD_MIN_MS)),
    fails: random() < 0.1,
  })).sort((a, b) => a.at - b.at);
  return { held, heldBy, flaps, events, endAfter, deploys };
}
