export function lookedUp(op, args) {
    const given = (name) => (args[name] === undefined || args[name] === null ? undefined : String(args[name]));
    const out = [];
    for (const [name, spec] of Object.entries(op.args)) {
        const value = given(name);
        if (spec.kind !== 'positional' || !spec.lookup || value === undefined)
            continue;
        const { what, listedBy, lists } = spec.lookup;
        // `/cloud backup list {server}` → the server as given, else its placeholder.
        out.push({ what, listedBy: listedBy.replace(/\{([\w-]+)\}/g, (_, n) => given(n) ?? `<${n}>`), lists, value });
    }
    return out;
}
//# sourceMappingURL=looked-up.js.map