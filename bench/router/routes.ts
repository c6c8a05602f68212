// The GitHub REST API route table the router benchmark matches against,
// written once in Go's ServeMux syntax and translated mechanically for the
// `:param` routers (find-my-way, Hono).
//
// Go's ServeMux refuses two patterns that match a common path when neither is
// more specific. The real GitHub API has such pairs, so the table leaves one
// side of each out (ServeMux throws a ConflictError at startup otherwise):
//   GET /repos/{owner}/{repo}/issues/comments/{comment_id}    kept: GET /repos/{owner}/{repo}/issues/{issue_number}/comments
//   GET /repos/{owner}/{repo}/pulls/comments/{comment_id}     kept: GET /repos/{owner}/{repo}/pulls/{pull_number}/comments
//   GET /repos/{owner}/{repo}/releases/{release_id}/assets    kept: GET /repos/{owner}/{repo}/releases/tags/{tag}
//   DELETE /repos/{owner}/{repo}/issues/{issue_number}/lock   kept: DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}
// (PATCH and DELETE of the two comment routes stay: no other pattern overlaps them for those methods.)
//
// Order matters for Hono only: its routers return every route that matches,
// in registration order, and a Hono app runs the first one. Within a group
// the more specific route comes first, so Hono's first match is the one Go's
// precedence picks; run.ts checks that for every request.

/** The routes, as `METHOD /path` in Go ServeMux syntax. */
export const routes: readonly string[] = [
  // Meta and the signed-in user (static)
  'GET /{$}',
  'GET /emojis',
  'GET /meta',
  'GET /rate_limit',
  'GET /octocat',
  'GET /zen',
  'GET /feeds',
  'GET /events',
  'GET /notifications',
  'PUT /notifications',
  'GET /user',
  'PATCH /user',
  'GET /user/repos',
  'POST /user/repos',
  'GET /user/orgs',
  'GET /user/issues',
  'GET /user/followers',
  'GET /user/following',
  'GET /user/following/{username}',
  'PUT /user/following/{username}',
  'DELETE /user/following/{username}',
  'GET /user/starred',
  'GET /user/starred/{owner}/{repo}',
  'PUT /user/starred/{owner}/{repo}',
  'DELETE /user/starred/{owner}/{repo}',
  'GET /user/emails',
  'POST /user/emails',
  'GET /user/keys',
  'POST /user/keys',
  'GET /user/keys/{key_id}',
  'DELETE /user/keys/{key_id}',

  // Users
  'GET /users',
  'GET /users/{username}',
  'GET /users/{username}/repos',
  'GET /users/{username}/orgs',
  'GET /users/{username}/followers',
  'GET /users/{username}/following',
  'GET /users/{username}/following/{target_user}',
  'GET /users/{username}/gists',
  'GET /users/{username}/starred',
  'GET /users/{username}/events',
  'GET /users/{username}/received_events',
  'GET /users/{username}/keys',

  // Gists
  'GET /gists',
  'POST /gists',
  'GET /gists/public',
  'GET /gists/starred',
  'GET /gists/{gist_id}',
  'PATCH /gists/{gist_id}',
  'DELETE /gists/{gist_id}',
  'GET /gists/{gist_id}/comments',
  'POST /gists/{gist_id}/comments',
  'GET /gists/{gist_id}/comments/{comment_id}',
  'GET /gists/{gist_id}/star',
  'PUT /gists/{gist_id}/star',
  'DELETE /gists/{gist_id}/star',
  'GET /gists/{gist_id}/{sha}',

  // Organizations
  'GET /organizations',
  'GET /orgs/{org}',
  'PATCH /orgs/{org}',
  'GET /orgs/{org}/repos',
  'POST /orgs/{org}/repos',
  'GET /orgs/{org}/members',
  'GET /orgs/{org}/members/{username}',
  'DELETE /orgs/{org}/members/{username}',
  'GET /orgs/{org}/teams',
  'POST /orgs/{org}/teams',
  'GET /orgs/{org}/teams/{team_slug}',
  'PATCH /orgs/{org}/teams/{team_slug}',
  'DELETE /orgs/{org}/teams/{team_slug}',
  'GET /orgs/{org}/teams/{team_slug}/members',
  'GET /orgs/{org}/events',
  'GET /orgs/{org}/hooks',
  'POST /orgs/{org}/hooks',
  'GET /orgs/{org}/hooks/{hook_id}',

  // Repositories
  'GET /repos/{owner}/{repo}',
  'PATCH /repos/{owner}/{repo}',
  'DELETE /repos/{owner}/{repo}',
  'GET /repos/{owner}/{repo}/contributors',
  'GET /repos/{owner}/{repo}/languages',
  'GET /repos/{owner}/{repo}/tags',
  'GET /repos/{owner}/{repo}/topics',
  'PUT /repos/{owner}/{repo}/topics',
  'GET /repos/{owner}/{repo}/readme',
  'GET /repos/{owner}/{repo}/forks',
  'POST /repos/{owner}/{repo}/forks',
  'GET /repos/{owner}/{repo}/stargazers',
  'GET /repos/{owner}/{repo}/subscribers',
  'GET /repos/{owner}/{repo}/branches',
  'GET /repos/{owner}/{repo}/branches/{branch}',
  'GET /repos/{owner}/{repo}/branches/{branch}/protection',
  'PUT /repos/{owner}/{repo}/branches/{branch}/protection',
  'DELETE /repos/{owner}/{repo}/branches/{branch}/protection',
  'GET /repos/{owner}/{repo}/collaborators',
  'GET /repos/{owner}/{repo}/collaborators/{username}',
  'PUT /repos/{owner}/{repo}/collaborators/{username}',
  'DELETE /repos/{owner}/{repo}/collaborators/{username}',
  'GET /repos/{owner}/{repo}/commits',
  'GET /repos/{owner}/{repo}/commits/{ref}',
  'GET /repos/{owner}/{repo}/commits/{commit_sha}/comments',
  'GET /repos/{owner}/{repo}/commits/{ref}/status',
  'GET /repos/{owner}/{repo}/commits/{ref}/check-runs',
  'GET /repos/{owner}/{repo}/compare/{basehead}',
  'GET /repos/{owner}/{repo}/contents/{path...}',
  'PUT /repos/{owner}/{repo}/contents/{path...}',
  'DELETE /repos/{owner}/{repo}/contents/{path...}',
  'GET /repos/{owner}/{repo}/stats/contributors',
  'GET /repos/{owner}/{repo}/stats/commit_activity',

  // Git database
  'GET /repos/{owner}/{repo}/git/ref/{ref...}',
  'POST /repos/{owner}/{repo}/git/refs',
  'PATCH /repos/{owner}/{repo}/git/refs/{ref...}',
  'DELETE /repos/{owner}/{repo}/git/refs/{ref...}',
  'POST /repos/{owner}/{repo}/git/commits',
  'GET /repos/{owner}/{repo}/git/commits/{commit_sha}',
  'POST /repos/{owner}/{repo}/git/trees',
  'GET /repos/{owner}/{repo}/git/trees/{tree_sha}',
  'POST /repos/{owner}/{repo}/git/blobs',
  'GET /repos/{owner}/{repo}/git/blobs/{file_sha}',
  'GET /repos/{owner}/{repo}/git/tags/{tag_sha}',

  // Issues
  'GET /repos/{owner}/{repo}/issues',
  'POST /repos/{owner}/{repo}/issues',
  'GET /repos/{owner}/{repo}/issues/comments',
  'PATCH /repos/{owner}/{repo}/issues/comments/{comment_id}',
  'DELETE /repos/{owner}/{repo}/issues/comments/{comment_id}',
  'GET /repos/{owner}/{repo}/issues/events',
  'GET /repos/{owner}/{repo}/issues/{issue_number}',
  'PATCH /repos/{owner}/{repo}/issues/{issue_number}',
  'GET /repos/{owner}/{repo}/issues/{issue_number}/comments',
  'POST /repos/{owner}/{repo}/issues/{issue_number}/comments',
  'GET /repos/{owner}/{repo}/issues/{issue_number}/labels',
  'POST /repos/{owner}/{repo}/issues/{issue_number}/labels',
  'PUT /repos/{owner}/{repo}/issues/{issue_number}/labels',
  'DELETE /repos/{owner}/{repo}/issues/{issue_number}/labels/{name}',
  'PUT /repos/{owner}/{repo}/issues/{issue_number}/lock',
  'GET /repos/{owner}/{repo}/issues/{issue_number}/events',
  'GET /repos/{owner}/{repo}/issues/{issue_number}/timeline',
  'GET /repos/{owner}/{repo}/labels',
  'POST /repos/{owner}/{repo}/labels',
  'GET /repos/{owner}/{repo}/labels/{name}',
  'PATCH /repos/{owner}/{repo}/labels/{name}',
  'DELETE /repos/{owner}/{repo}/labels/{name}',
  'GET /repos/{owner}/{repo}/milestones',
  'POST /repos/{owner}/{repo}/milestones',
  'GET /repos/{owner}/{repo}/milestones/{milestone_number}',

  // Pull requests
  'GET /repos/{owner}/{repo}/pulls',
  'POST /repos/{owner}/{repo}/pulls',
  'PATCH /repos/{owner}/{repo}/pulls/comments/{comment_id}',
  'DELETE /repos/{owner}/{repo}/pulls/comments/{comment_id}',
  'GET /repos/{owner}/{repo}/pulls/{pull_number}',
  'PATCH /repos/{owner}/{repo}/pulls/{pull_number}',
  'GET /repos/{owner}/{repo}/pulls/{pull_number}/commits',
  'GET /repos/{owner}/{repo}/pulls/{pull_number}/files',
  'GET /repos/{owner}/{repo}/pulls/{pull_number}/merge',
  'PUT /repos/{owner}/{repo}/pulls/{pull_number}/merge',
  'GET /repos/{owner}/{repo}/pulls/{pull_number}/comments',
  'POST /repos/{owner}/{repo}/pulls/{pull_number}/comments',
  'GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews',
  'POST /repos/{owner}/{repo}/pulls/{pull_number}/reviews',
  'GET /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}',
  'PUT /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}',
  'DELETE /repos/{owner}/{repo}/pulls/{pull_number}/reviews/{review_id}',

  // Releases
  'GET /repos/{owner}/{repo}/releases',
  'POST /repos/{owner}/{repo}/releases',
  'GET /repos/{owner}/{repo}/releases/latest',
  'GET /repos/{owner}/{repo}/releases/tags/{tag}',
  'GET /repos/{owner}/{repo}/releases/{release_id}',
  'PATCH /repos/{owner}/{repo}/releases/{release_id}',
  'DELETE /repos/{owner}/{repo}/releases/{release_id}',

  // Webhooks and Actions
  'GET /repos/{owner}/{repo}/hooks',
  'POST /repos/{owner}/{repo}/hooks',
  'GET /repos/{owner}/{repo}/hooks/{hook_id}',
  'PATCH /repos/{owner}/{repo}/hooks/{hook_id}',
  'DELETE /repos/{owner}/{repo}/hooks/{hook_id}',
  'POST /repos/{owner}/{repo}/hooks/{hook_id}/pings',
  'GET /repos/{owner}/{repo}/actions/runs',
  'GET /repos/{owner}/{repo}/actions/runs/{run_id}',
  'POST /repos/{owner}/{repo}/actions/runs/{run_id}/rerun',
  'GET /repos/{owner}/{repo}/actions/workflows',
  'POST /repos/{owner}/{repo}/actions/workflows/{workflow_id}/dispatches',

  // Search (static)
  'GET /search/repositories',
  'GET /search/code',
  'GET /search/issues',
  'GET /search/users',
];

/** Requests that match no route (for ServeMux, some are 405s: another method matches). */
export const misses: readonly (readonly [method: string, path: string])[] = [
  ['GET', '/nope'],
  ['GET', '/users/octocat/unknown'],
  ['GET', '/repos/octocat/hello-world/unknown'],
  ['GET', '/repos/octocat/hello-world/issues/1347/unknown'],
  ['GET', '/repos/octocat/hello-world/pulls/42/reviews/80/extra'],
  ['GET', '/orgs/github/teams/justice-league/members/extra'],
  ['GET', '/search'],
  ['GET', '/gists/aa5a315d61ae9438b18d/comments/1/extra'],
  ['POST', '/emojis'],
  ['DELETE', '/user'],
  ['PUT', '/repos/octocat/hello-world/issues/1347'],
  ['PATCH', '/users/octocat'],
];

/**
 * The concrete value a request puts in each wildcard (none needs escaping);
 * a `{name...}` wildcard takes the value of "name..." when there is one.
 */
export const sampleValues: Readonly<Record<string, string>> = {
  owner: 'octocat',
  repo: 'hello-world',
  username: 'octocat',
  target_user: 'hubot',
  org: 'github',
  team_slug: 'justice-league',
  key_id: '7',
  gist_id: 'aa5a315d61ae9438b18d',
  comment_id: '1',
  sha: '3d21ec53a331a6f037a91c368710b99387d012c1',
  hook_id: '12345678',
  branch: 'main',
  ref: 'v1.2.0',
  'ref...': 'heads/feature-a',
  commit_sha: '6dcb09b5b57875f334f61aebed695e2e4193db5e',
  basehead: 'main...feature-a',
  path: 'docs/guide/README.md',
  tree_sha: '9fb037999f264ba9a7fc6274d15fa3ae2ab98312',
  file_sha: '3a0f86fb8db8eea7ccbb9a95f325ddbedfb25e15',
  tag_sha: '940bd336248efae0f9ee5bc7b2d5c985887b16ac',
  issue_number: '1347',
  name: 'bug',
  milestone_number: '3',
  pull_number: '42',
  review_id: '80',
  tag: 'v1.0.0',
  release_id: '2',
  run_id: '30433642',
  workflow_id: '161335',
};

/** A wildcard of a Go pattern: its name and whether it is `{name...}`. */
export interface Wildcard {
  name: string;
  multi: boolean;
}

/** Splits `METHOD /path` into its method and path. */
export function splitRoute(route: string): [method: string, path: string] {
  const sp = route.indexOf(' ');
  return [route.slice(0, sp), route.slice(sp + 1)];
}

/** The wildcards of a Go pattern path, in order (`{$}` is not one). */
export function wildcards(path: string): Wildcard[] {
  return [...path.matchAll(/\{([^}]+?)(\.\.\.)?\}/g)]
    .filter((m) => m[1] !== '$')
    .map((m) => ({ name: m[1]!, multi: m[2] !== undefined }));
}

/** The sample value of a wildcard. */
export function sampleValue(w: Wildcard): string {
  const v = (w.multi ? sampleValues[`${w.name}...`] : undefined) ?? sampleValues[w.name];
  if (v === undefined) throw new Error(`routes.ts: no sample value for wildcard {${w.name}}`);
  return v;
}

/** The Go path with each wildcard replaced by its sample value, `{$}` by nothing. */
export function samplePath(path: string): string {
  return path.replace(/\{([^}]+?)(\.\.\.)?\}/g, (_, name: string, multi?: string) =>
    name === '$' ? '' : sampleValue({ name, multi: multi !== undefined }),
  );
}

/**
 * The Go path in find-my-way's syntax: `{x}` → `:x`, `{x...}` → `*` (its
 * value comes back as param "*"), `{$}` → nothing.
 */
export function toFindMyWay(path: string): string {
  return path.replace(/\{([^}]+?)(\.\.\.)?\}/g, (_, name: string, multi?: string) =>
    name === '$' ? '' : multi ? '*' : `:${name}`,
  );
}

/** The Go path in Hono's syntax: `{x}` → `:x`, `{x...}` → `:x{.+}`, `{$}` → nothing. */
export function toHono(path: string): string {
  return path.replace(/\{([^}]+?)(\.\.\.)?\}/g, (_, name: string, multi?: string) =>
    name === '$' ? '' : multi ? `:${name}{.+}` : `:${name}`,
  );
}
