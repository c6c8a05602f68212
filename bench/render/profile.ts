// A profile of kitajs's real-world page rendered by one runtime.
//
//   tsx bench/render/profile.ts pagetree      (or kitajs; a third argument: seconds, 3 by default)

import { profileLoop } from '../lib/cpuprofile.ts';
import { loadPage, RUNTIMES, type Runtime } from './load.ts';

const runtime = (process.argv[2] ?? 'pagetree') as Runtime;
if (!RUNTIMES.includes(runtime)) throw new Error(`usage: tsx bench/render/profile.ts ${RUNTIMES.join('|')} [seconds]`);
const render = loadPage(runtime);
void profileLoop(`render-${runtime}`, 'pages', () => (render().length > 0 ? 1 : 0), Number(process.argv[3] ?? 3));
