// The part of autocannon's programmatic API that run.ts uses (the package ships no types).

declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      url: string;
      connections?: number;
      pipelining?: number;
      /** Seconds. */
      duration?: number;
      timeout?: number;
      headers?: Record<string, string>;
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
    }
    interface Instance extends PromiseLike<Result> {
      stop(): void;
    }
  }
  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}
