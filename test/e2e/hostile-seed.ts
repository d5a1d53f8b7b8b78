/**
 * Seeding for the hostile-output tours: hostile strings in every cloud-controlled field of
 * the sandbox that the bot shows.
 */
import type { SandboxState } from '../../src/sandbox/index.js';

/** Puts hostile values (cycled) into every cloud-controlled field the bot shows. */
export function seedHostile(state: SandboxState, values: readonly string[]): void {
  let n = 0;
  const h = () => values[n++ % values.length]!;
  for (const s of state.servers) {
    s.name = h();
    s.hostname = h();
    s.osTemplate = h();
    for (const ip of s.ips) ip.rdns = h();
    if (s.powerTask) Object.assign(s.powerTask, { message: h(), action: h(), upid: h() });
  }
  for (const r of state.reservedIps) r.rdns = h();
  for (const w of state.workers) {
    Object.assign(w, {
      name: h(), gitRepository: h(), gitBranch: h(), baseDirectory: h(), publishDirectory: h(),
      installCommand: h(), buildCommand: h(), startCommand: h(), portsExposes: h(), lastError: h(),
      suspensionReason: h(), fqdnOverride: h(),
    });
  }
  for (const list of Object.values(state.backups)) for (const b of list) Object.assign(b, { name: h(), compressionType: h() });
  for (const g of state.securityGroups) {
    g.name = h();
    g.description = h();
    for (const r of g.rules) r.comment = h();
  }
  for (const k of state.sshKeys) Object.assign(k, { name: h(), public_key: `ssh-ed25519 AAAA ${h()}` });
  for (const p of state.plans) p.name = h();
  for (const l of state.locations) Object.assign(l, { name: h(), description: h() });
  for (const t of state.osTemplates) Object.assign(t, { name: h(), group_name: h() });
  for (const t of state.workerTemplates) Object.assign(t, { name: h(), description: h() });
  for (const i of state.invoices.slice(0, 20)) Object.assign(i, { status: h(), type: h() });
}
