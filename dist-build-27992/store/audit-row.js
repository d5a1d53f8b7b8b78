export {};
//# sourceMappingURL=audit-row.js.map