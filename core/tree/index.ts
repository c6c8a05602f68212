// pagetree/tree: the page tree looked into, for tools and tests. A node's kind and its components (PageNode's
// `kind` and `components`), the placeholder names of a pattern, and the loose form of URL params. What an app names
// every day (PageNode, Tree, RouteInfo, PageRef, UrlParamsArg) is in 'pagetree'.
//
//   import type { ComponentInfo, ParamNames } from 'pagetree/tree';

export type { ComponentInfo, NodeKind } from './page-node.ts';
export type { ParamNames } from './url-types.ts';
export type { UrlParams } from './url-for.ts';
