// pagetree/observe: what a running app tells you. The logger pagetree reports to (`new ServeMux({ logger })`), the
// options of mount's `observe` and the access log's entries, and the trace records a tracer reads (Server-Timing, OpenTelemetry).
//
//   import type { AccessLogEntry, Logger, RequestTrace } from 'pagetree/observe';

export type { Logger } from '../kernel/logger.ts';
export type { AccessLogEntry, ObserveOptions } from './tracing.ts';
export type { PropsTrace, RenderTrace, RequestTrace } from '../request/trace.ts';
