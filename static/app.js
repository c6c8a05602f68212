// Clears the add form once htmx has sent it (htmx 2 and htmx 4 name the event differently).
for (const name of ['htmx:afterRequest', 'htmx:after:request']) {
  document.addEventListener(name, (event) => {
    const form = event.target instanceof HTMLFormElement ? event.target : null;
    if (form && form.hasAttribute('data-reset')) form.reset();
  });
}

// The server's HX-Trigger "task-added" (hxTrigger in pages-example/tasks.tsx): a notice, as text, never markup.
document.addEventListener('task-added', (event) => {
  const notice = document.getElementById('notice');
  if (notice) notice.textContent = `Task added: ${event.detail.title}`;
});
