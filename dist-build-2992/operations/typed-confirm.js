/** Whether the text typed to confirm (a reinstall's hostname) is the expected one: spaces around and case do not count, as in hostnames. */
export function typedMatches(typed, expected) {
    return typed !== undefined && typed.trim().toLowerCase() === expected.trim().toLowerCase();
}
//# sourceMappingURL=typed-confirm.js.map