// pagetree/htmx: what a page says to htmx. Read the request's htmx headers (htmxDetails), answer with htmx's response
// headers (hxTrigger, hxRetarget, hxPushUrl, …), send more regions in the same answer (alsoRender), end a poll
// (stopPolling), and write htmx's config into the layout (<HtmxConfig />).
//
//   import { alsoRender, htmxDetails, hxTrigger } from 'pagetree/htmx';

export { htmxDetails } from '../request/context.ts';
export type { HtmxDetails } from '../request/htmx-details.ts';
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
