// pagetree/forms: a submitted form, read and checked against a Standard Schema (parseForm), the state a form is
// drawn again with (formState, addFormError), and PUT, PATCH and DELETE from a form without JavaScript
// (methodOverride, <MethodField>); a detail page's path values checked the same way, a missing thing a 404 (parsePath,
// getOr404), and a query whose every field has a default read as it is (parseQuery).
//
//   import { formState, parseForm, type FormState } from 'pagetree/forms';

export { addFormError, formState, parseForm } from './form.ts';
export type { FieldName, FormResult, FormState, InvalidForm, ParseFormOptions, ValidForm } from './form.ts';
export { getOr404, parsePath } from './path.ts';
export { parseQuery } from './query.ts';
export { MethodField, methodOverride, type MethodOverrideOptions } from './method-override.ts';
