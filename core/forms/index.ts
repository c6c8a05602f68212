// pagetree/forms: a submitted form, read and checked against a Standard Schema (parseForm), the state a form is
// drawn again with (formState, addFormError), and PUT, PATCH and DELETE from a form without JavaScript
// (methodOverride, <MethodField>).
//
//   import { formState, parseForm, type FormState } from 'pagetree/forms';

export { addFormError, formState, parseForm } from './form.ts';
export type { FieldName, FormResult, FormState, InvalidForm, ParseFormOptions, ValidForm } from './form.ts';
export { MethodField, methodOverride, type MethodOverrideOptions } from './method-override.ts';
