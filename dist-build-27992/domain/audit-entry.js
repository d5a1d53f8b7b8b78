export {};
//# sourceMappingURL=audit-entry.js.map