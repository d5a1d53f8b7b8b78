export {};
//# sourceMappingURL=cloud-request.js.map