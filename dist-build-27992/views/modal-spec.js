export {};
//# sourceMappingURL=modal-spec.js.map