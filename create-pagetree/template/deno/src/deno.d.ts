// The part of Deno's API that main.ts uses, for tsc: Deno's own types are not on npm. Deno itself does not read
// this file (it is imported by nothing) and checks main.ts with its own types.

declare namespace Deno {
  const args: string[];
  const env: { get(name: string): string | undefined };
  function serve(options: { port?: number; hostname?: string }, handler: (req: Request) => Promise<Response>): unknown;
}
