// The app's own 404 page: the layout for a full load, a fragment when htmx swaps the answer into an element.

import { renderComponent, urlFor } from 'pagetree';
import { htmxDetails } from 'pagetree/htmx';
import { Layout } from './layout.tsx';
import { TasksPage } from './tasks.tsx';

export class NotFoundPage {
  props() {
    if (htmxDetails().swapsIntoElement) return renderComponent(<p class="empty">Not found.</p>);
    return {};
  }

  page() {
    return (
      <Layout title="Not found">
        <p>There is no page at this address.</p>
        <p>
          <a href={urlFor(TasksPage)}>Back to the tasks</a>
        </p>
      </Layout>
    );
  }
}
