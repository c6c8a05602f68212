// Clears the add form once htmx has sent it (htmx 2 and htmx 4 name the event differently).
for (const name of ['htmx:afterRequest', 'htmx:after:request']) {
  document.addEventListener(name, (event) => {
    const form = event.target instanceof HTMLFormElement ? event.target : null;
    if (form && form.hasAttribute('data-reset')) form.reset();
  });
}
