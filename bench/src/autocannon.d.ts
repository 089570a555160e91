// The part of autocannon's API the load bench uses (the package ships no types).
declare module "autocannon" {
  interface RawRequest {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    overallRate?: number;
    timeout?: number;
    ignoreCoordinatedOmission?: boolean;
    requests?: Array<{ setupRequest?: (req: RawRequest) => RawRequest }>;
  }
  interface Result {
    requests: { average: number; total: number; sent: number };
    latency: { p50: number; p90: number; p99: number; max: number; average: number };
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
  }
  /** The run: awaited for its result, and told of each response as it comes. */
  interface Instance extends PromiseLike<Result> {
    on(event: "response", listener: (client: unknown, statusCode: number, bytes: number, ms: number) => void): Instance;
  }
  function autocannon(opts: Options): Instance;
  export default autocannon;
}
