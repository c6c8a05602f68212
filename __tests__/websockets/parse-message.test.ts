// Issue 44: parseMessage reads what htmx sends over a socket (htmx 4's {...values, headers}, htmx 2's
// {...values, HEADERS}) into parseForm's result, validated by the same Standard Schema.

import * as v from 'valibot';
import { z } from 'zod';
import { parseMessage } from '../../core/live/index.ts';

const Task = z.object({
  title: z.string().trim().min(1, 'Required'),
  tags: z.array(z.string()).default([]),
  qty: z.coerce.number().int().default(1),
  urgent: z.stringbool().default(false),
});

test.each([
  {
    name: 'htmx 4: values beside headers; a multi-value field is an array',
    data: { title: ' Milk ', tags: ['a', 'b'], headers: { 'HX-Request': 'true', 'HX-Target': 'form#t' } },
    want: { ok: true, data: { title: 'Milk', tags: ['a', 'b'], qty: 1, urgent: false } },
    headers: { 'HX-Request': 'true', 'HX-Target': 'form#t' },
  },
  {
    name: 'htmx 2: values beside HEADERS',
    data: { title: 'Eggs', HEADERS: { 'HX-Request': 'true', 'HX-Trigger': 'f' } },
    want: { ok: true, data: { title: 'Eggs', tags: [], qty: 1, urgent: false } },
    headers: { 'HX-Request': 'true', 'HX-Trigger': 'f' },
  },
  {
    name: 'hx-vals numbers and booleans become their text, which the schema converts',
    data: { title: 'x', qty: 3, urgent: true, headers: {} },
    want: { ok: true, data: { title: 'x', tags: [], qty: 3, urgent: true } },
    headers: {},
  },
  {
    name: 'one value of an array field is still an array (the schema says so)',
    data: { title: 'x', tags: 'solo' },
    want: { ok: true, data: { title: 'x', tags: ['solo'], qty: 1, urgent: false } },
    headers: {},
  },
])('$name', async ({ data, want, headers }) => {
  const form = await parseMessage(JSON.stringify(data), Task);
  expect({ ok: form.ok, data: form.data }).toEqual(want);
  expect({ ...form.headers }).toEqual(headers);
});

test('an invalid message gives the errors and the values to draw the form again, as parseForm does', async () => {
  const form = await parseMessage(JSON.stringify({ title: '  ', headers: { 'HX-Request': 'true' } }), Task);
  expect(form.ok).toBe(false);
  expect({ ...form.errors }).toEqual({ title: ['Required'] });
  expect({ ...form.values }).toEqual({ title: '  ' });
});

test.each(['not json', '[1,2]', '"text"', 'null', '{"title":'])(
  'a message that is not a JSON object (%s) is an invalid form, not an exception',
  async (data) => {
    const form = await parseMessage(data, Task);
    expect(form.ok).toBe(false);
    expect(form.formErrors).toEqual(['The message is not a form (a JSON object).']);
  },
);

test('a field named __proto__ sets no prototype, and any Standard Schema validator works (valibot)', async () => {
  const form = await parseMessage('{"__proto__":"x","title":"t"}', v.object({ title: v.string() }));
  expect(form.ok).toBe(true);
  expect(form.data).toEqual({ title: 't' });
  expect(form.values.title).toBe('t');
  expect(Object.getPrototypeOf(form.values)).toBe(null);
});
