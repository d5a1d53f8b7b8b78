export {};
//# sourceMappingURL=step-row.js.map