// Known bad, on purpose: `npm run xss` (lint/xss-check.ts) fails unless the XSS
// scanner reports the unescaped child below, which proves the scanner really ran
// over the project. Never rendered; do not "fix" it.

export function KnownBad({ userInput }: { userInput: string }): JSX.Element {
  return <div>{userInput}</div>;
}
