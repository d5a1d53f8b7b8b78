export {};
//# sourceMappingURL=access-verdict.js.map