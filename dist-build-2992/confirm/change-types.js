export {};
//# sourceMappingURL=change-types.js.map