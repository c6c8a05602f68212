// Compile-time checks of the htmx toolkit's signatures.

import {
  alsoRender,
  htmxDetails,
  htmxRequest,
  hxLocation,
  hxPushUrl,
  hxReswap,
  hxRetarget,
  hxTrigger,
  stopPolling,
  type HtmxDetails,
  type Swap,
} from '../../core/index.ts';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

class TasksPage {
  openCount(): string {
    return '3';
  }
}
declare function SearchResults(props: { q: string }): string;

export function checks(): void {
  // Regions: a page method, a standalone component, a chain, an id string; the element is rendered JSX.
  alsoRender(TasksPage.prototype.openCount, '<b>3</b>');
  alsoRender(SearchResults, Promise.resolve('<ul></ul>'), { swap: 'beforeend' });
  alsoRender([TasksPage, 'openCount'], '<b>3</b>', { swap: 'outerHTML swap:100ms', tag: 'tbody' });
  alsoRender('tasks-open-count', '<b>3</b>');
  // @ts-expect-error an element is rendered HTML, not a number
  alsoRender('tasks-open-count', 3);
  // @ts-expect-error an unknown swap style
  alsoRender('x', '', { swap: 'sideways' });

  hxTrigger('task-added');
  hxTrigger('task-added', { title: 'x' }, { after: 'settle' });
  // @ts-expect-error "after" is receive, swap or settle
  hxTrigger('task-added', null, { after: 'load' });
  hxRetarget(TasksPage.prototype.openCount);
  hxRetarget('closest tr');
  hxReswap('innerHTML transition:true');
  // @ts-expect-error not a swap style
  hxReswap('inner');
  hxPushUrl(false);
  // @ts-expect-error true is not a URL
  hxPushUrl(true);
  hxLocation({ path: '/tasks', target: TasksPage.prototype.openCount, swap: 'outerHTML', push: false });
  // @ts-expect-error the object form needs a path
  hxLocation({ target: '#x' });
  const stopped: boolean = stopPolling();
  void stopped;

  const details: HtmxDetails = htmxDetails(htmxRequest('/x', { version: 2, target: TasksPage.prototype.openCount }));
  const version: Equal<typeof details.version, 2 | 4 | null> = true;
  const requestType: Equal<typeof details.requestType, 'partial' | 'full' | null> = true;
  void [version, requestType, details];
  // @ts-expect-error htmx 3 does not exist
  htmxRequest('/x', { version: 3 });
  const swap: Swap = 'delete';
  void swap;
}
