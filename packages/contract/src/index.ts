export * from "./auth.js";
export * from "./common.js";
export * from "./limits.js";
export * from "./messages.js";
export * from "./password.js";
export * from "./permissions.js";
export * from "./roles.js";
export * from "./user.js";
