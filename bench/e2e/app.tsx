// The pagetree side of the e2e benchmark: a props + page route whose list is
// a partial, as an app would write it (compare pages-example/tasks.tsx).
//
//   App.list  GET /lists/{listId}  ListPage
//             page()   the whole page, the list inside <section id={id(this.items)}>
//             items()  the list alone, for HX-Target: list-items

import { id, route, type PageRequest } from '../../core/index.ts';
import { ItemList, ListView, loadList, type List } from './page.tsx';

export class ListPage {
  props(req: PageRequest): List {
    return loadList(req.pathValue('listId'));
  }

  page(list: List) {
    return (
      <ListView list={list} containerId={id(this.items)}>
        {this.items(list)}
      </ListView>
    );
  }

  items(list: List) {
    return <ItemList list={list} />;
  }
}

export class App {
  list = route('GET /lists/{listId}', ListPage);
}
