/**
 * The shapes config.ts produces (DESIGN "Runtime contract"): what each part of the bot is
 * given. Types only; config.ts alone reads the environment.
 */
export {};
//# sourceMappingURL=config-types.js.map