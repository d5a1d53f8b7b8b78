/**
 * Resources the bot has seen in the cloud's answers (issue 14, "names instead of numbers"): the
 * API lists no servers, groups or workers, so this is how a name finds its id. Only ids, uuids
 * and names are kept, never anything secret.
 */
export const KNOWN_KINDS = ['server', 'sg', 'worker'];
/**
 * Which name of a resource a name is (issue 20): a resource keeps one name per field, so an
 * answer replaces only the name of its own field (a rename answer the display name, `server ips`
 * the reverse DNS) and never forgets a name another kind of answer taught. `seed`: the local
 * shell's sandbox seed. `inventory` is never stored: it is read from the policy file.
 */
export const NAME_FIELDS = ['name', 'hostname', 'rdns', 'seed'];
export const KNOWN_LIST_MAX = 500;
//# sourceMappingURL=known-types.js.map