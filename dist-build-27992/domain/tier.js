export {};
//# sourceMappingURL=tier.js.map