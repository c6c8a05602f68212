// The part of autocannon's programmatic API that the benchmarks use (the package ships no types).

declare module 'autocannon' {
  namespace autocannon {
    /** One step of a request sequence; each connection walks the sequence in order, again and again. */
    interface Request {
      method?: string;
      path?: string;
      headers?: Record<string, string>;
      body?: string;
      /** Mutates the request before it is sent; `context` is per connection, reset at each pass of the sequence. */
      setupRequest?: (req: Request, context: Record<string, unknown>) => Request;
      /** Sees each answer: status, body (as a string) and headers. */
      onResponse?: (
        status: number,
        body: string,
        context: Record<string, unknown>,
        headers: Record<string, string>,
      ) => void;
    }
    interface Options {
      url: string;
      connections?: number;
      pipelining?: number;
      /** Seconds. */
      duration?: number;
      /** Seconds to wait for each answer. */
      timeout?: number;
      method?: string;
      headers?: Record<string, string>;
      requests?: Request[];
    }
    interface Histogram {
      average: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p99: number;
    }
    interface Result {
      requests: Histogram;
      latency: Histogram;
      throughput: Histogram;
      /** Seconds the run took. */
      duration: number;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      '2xx': number;
      statusCodeStats: Record<string, { count: number }>;
    }
    interface Instance extends PromiseLike<Result> {
      stop(): void;
    }
  }
  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}
