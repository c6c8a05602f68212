import { RegExpRouter } from 'hono/router/reg-exp-router';
function t(paths: string[]) { const h = new RegExpRouter<number>(); try { paths.forEach((p, i) => h.add('GET', p, i)); console.log(paths.join(' + '), '→', JSON.stringify(h.match('GET', '/users/me'))); } catch (e) { console.log(paths.join(' + '), '→', String(e)); } }
t(['/users/me', '/users/:id']);
t(['/users/:id', '/users/me']);
t(['/users/:id', '/users/:name/x']);
t(['/users/:id/a', '/users/:id/b']);
t(['/gists/public', '/gists/:gist_id']);
t(['/gists', '/gists/:gist_id']);
t(['/gists/:gist_id', '/gists/:gist_id/star', '/gists/:gist_id/:sha']);
