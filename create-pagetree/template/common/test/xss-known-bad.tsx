// Unescaped on purpose, and never rendered: npm test's XSS scan (test/xss-check.mjs) must report this file, which
// proves the scanner ran over the project (it exits 0 even when it crashed). Keep it as it is.

export function KnownBad(props: { userInput: string }) {
  return <div>{props.userInput}</div>;
}
