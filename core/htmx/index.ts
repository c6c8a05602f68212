// pagetree/htmx: what a page says to htmx. Read the request's htmx headers (htmxDetails), answer with htmx's response
// headers (hxTrigger, hxRetarget, hxPushUrl, …), send more regions in the same answer (alsoRender), end a poll
// (stopPolling), answer one request with a fragment of its own (answerWith), and write htmx's config into the layout
// (<HtmxConfig />).
//
//   import { alsoRender, htmxDetails, hxTrigger } from 'pagetree/htmx';

export { htmxDetails } from '../request/context.ts';
export type { HtmxDetails } from '../request/htmx-details.ts';
export { answerWith } from './answer-with.ts';
export type { AnswerWith } from './answer-with.ts';
export { HtmxConfig } from './config.ts';
export {
  alsoRender,
  hxLocation,
  hxPushUrl,
  hxRedirect,
  hxRefresh,
  hxReplaceUrl,
  hxReselect,
  hxReswap,
  hxRetarget,
  hxTrigger,
  stopPolling,
} from './response.ts';
export type { HxLocation, Swap, SwapStyle, TriggerTime } from './response.ts';
