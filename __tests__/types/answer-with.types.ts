// Compile-time checks of answerWith: the props are checked against the component that renders them.

import { answerWith, type AnswerWith } from '../../core/htmx/index.ts';

declare function EditRow(props: { name: string; error: string }): string;

class ContactPage {
  row(props: { name: string }): string {
    return props.name;
  }
}

export function checks(page: ContactPage): AnswerWith[] {
  return [
    answerWith(EditRow, { name: 'Ada', error: '' }),
    answerWith(page.row, { name: 'Ada' }),
    // @ts-expect-error -- a prop the component needs is missing
    answerWith(EditRow, { name: 'Ada' }),
    // @ts-expect-error -- a prop of the wrong type
    answerWith(page.row, { name: 3 }),
  ];
}
