export {};
//# sourceMappingURL=tables.js.map