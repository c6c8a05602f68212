// The server's HX-Trigger "task-added" (hxTrigger in pages-example/tasks.tsx): a notice, as text, never markup.
document.addEventListener('task-added', (event) => {
  const notice = document.getElementById('notice');
  if (notice) notice.textContent = `Task added: ${event.detail.title}`;
});
