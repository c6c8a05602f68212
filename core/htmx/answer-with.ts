// One answer's own fragment: `answerWith(component, props)`, returned by props() or a verb method, renders
// `component(props)` where htmx swaps the answer into an element and the whole page for the rest:
//
//   put() → answerWith(this.editRow, { contact, form })   htmx, hx-target="closest tr"  → editRow(props), 422
//                                                         a form posted without htmx    → page(props), 422
//
// The page pipeline (pipeline/dispatch.ts) reads it; this module only makes and reads the record.

const kAnswer = Symbol('pagetree.answerWith');

/** What `answerWith` returns; `props()` or a verb method returns it. */
export interface AnswerWith {
  readonly [kAnswer]: AnswerRecord;
}

/** The component and props an `AnswerWith` carries. */
export interface AnswerRecord {
  readonly component: (props: never) => unknown;
  readonly props: unknown;
}

/**
 * Answers with `component(props)` where htmx swaps the answer into an element, and with the whole page,
 * `page(props)`, for the rest (a page load, a boosted link, a form posted without JavaScript): one answer's own
 * fragment, as a 422 renders the form again where a saved row renders the row. `component` is a component of the
 * page (`this.editRow`) or a standalone function component; its props are checked against it.
 * @example if (!form.ok) { setStatus(422); return answerWith(this.editRow, { contact, form }); }
 */
export function answerWith<TProps>(component: (props: TProps) => unknown, props: TProps): AnswerWith {
  return { [kAnswer]: { component: component as (props: never) => unknown, props } };
}

/**
 * Whether props() answered with `answerWith(...)`.
 * @example isAnswerWith(answerWith(EditRow, props)) // → true; isAnswerWith({ contact }) → false
 */
export function isAnswerWith(value: unknown): value is AnswerWith {
  return typeof value === 'object' && value !== null && kAnswer in value;
}

/**
 * The component and props of an `answerWith(...)`.
 * @example answerOf(answerWith(EditRow, props)) // → { component: EditRow, props }
 */
export function answerOf(value: AnswerWith): AnswerRecord {
  return value[kAnswer];
}
