// The public entry of pagetree: every export is named here, on purpose.

export { ConflictError, PatternError } from './errors';
export { ServeMux } from './mux/serve-mux';
export type { HandlerMatch } from './mux/serve-mux';
export type { Handler, HandlerFunc, HandlerObject, PageRequest } from './mux/request';
