export const ROLES = ['viewer', 'operator', 'admin'];
const TIERS = {
    viewer: ['read'],
    operator: ['read', 'change'],
    admin: ['read', 'change', 'billing', 'destroy', 'secret'],
};
export function covers(role, tier) {
    return role !== undefined && TIERS[role].includes(tier);
}
/** The least role that may act on a tier. */
export function roleNeeded(tier) {
    return ROLES.find((r) => TIERS[r].includes(tier));
}
export function higher(a, b) {
    if (!a)
        return b;
    if (!b)
        return a;
    return ROLES.indexOf(a) >= ROLES.indexOf(b) ? a : b;
}
//# sourceMappingURL=roles.js.map