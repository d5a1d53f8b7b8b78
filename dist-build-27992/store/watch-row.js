export {};
//# sourceMappingURL=watch-row.js.map