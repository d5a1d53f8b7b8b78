/**
 * Request bodies of the Cloud API v2 with the spec's limits ("Endpoints" and "Limits" in
 * shared/spec/cloud-api-v2.md). Which endpoint takes which body is said once, in endpoints.ts.
 * The operations catalog validates user input with these before any request; the client sends
 * what it is given.
 */
import { z } from 'zod';
/** Reserve IPs. */
export const ReserveIpsBody = z.object({
    location_id: z.number().int().min(1),
    subnet_id: z.string().min(1).max(191),
    quantity: z.number().int().min(1).optional(),
});
export const GIT_SOURCES = ['public', 'hosted_git', 'template', 'database'];
export const BUILD_PACKS = ['auto_detect', 'static', 'container_file'];
/** Deploy a worker. */
export const DeployWorkerBody = z.object({
    location_id: z.number().int().min(1),
    name: z.string().trim().min(1).max(191),
    git_repository: z.string().max(500).optional(),
    git_source: z.enum(GIT_SOURCES).optional(),
    git_branch: z.string().max(191).optional(),
    build_pack: z.enum(BUILD_PACKS).optional(),
    ports_exposes: z.string().max(64).optional(),
    base_directory: z.string().max(255).optional(),
    publish_directory: z.string().max(255).optional(),
    install_command: z.string().max(1000).optional(),
    build_command: z.string().max(1000).optional(),
    start_command: z.string().max(1000).optional(),
    is_spa: z.boolean().optional(),
});
/** Reinstall a server. */
export const ReinstallBody = z.object({
    template_slug: z.string().min(1).max(191),
    password: z.string().min(8).optional(),
    ssh_key_ids: z.array(z.number().int().min(1)).min(1).max(20).optional(),
});
/** Rename a server. */
export const RenameBody = z.object({ name: z.string().trim().min(1).max(40) });
export const BACKUP_MODES = ['snapshot', 'suspend', 'kill'];
export const COMPRESSION_TYPES = ['none', 'lzo', 'gzip', 'zstd'];
/** Create a backup — defaults `snapshot` and `zstd` per the spec. */
export const CreateBackupBody = z.object({
    name: z.string().max(40).optional(),
    mode: z.enum(BACKUP_MODES).optional(),
    compression_type: z.enum(COMPRESSION_TYPES).optional(),
});
export const RULE_TYPES = ['inbound', 'outbound'];
export const RULE_ACTIONS = ['ACCEPT', 'REJECT', 'DROP'];
/**
 * Add a firewall rule — lengths only here; the address and port syntax rules
 * (literal IPs/CIDRs/ranges; numeric ports only with port-capable protocols) are checked by
 * the firewall rule validator of the changes issue.
 */
export const AddRuleBody = z.object({
    type: z.enum(RULE_TYPES),
    action: z.enum(RULE_ACTIONS),
    protocol: z.string().min(1).max(20),
    source: z.string().max(255).nullable().optional(),
    destination: z.string().max(255).nullable().optional(),
    source_port: z.string().max(50).nullable().optional(),
    destination_port: z.string().max(50).nullable().optional(),
    comment: z.string().max(255).optional(),
    priority: z.number().int().min(0).optional(),
});
/** Attach a server to a security group — the uuid is checked by ids.ts `serverUuid`. */
export const AttachServerBody = z.object({ server_uuid: z.string().min(1) });
//# sourceMappingURL=requests.js.map