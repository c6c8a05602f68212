// pagetree/observe: what a running app tells you. The logger pagetree reports to (`new ServeMux({ logger })`), the
// access log's entries (mount's `accessLog`), and the trace records a tracer reads (Server-Timing, OpenTelemetry).
//
//   import type { AccessLogEntry, Logger, RequestTrace } from 'pagetree/observe';

export type { Logger } from '../kernel/logger.ts';
export type { AccessLogEntry } from './tracing.ts';
export type { PropsTrace, RenderTrace, RequestTrace } from '../request/trace.ts';
