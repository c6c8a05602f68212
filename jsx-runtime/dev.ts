// The development JSX runtime ("jsx": "react-jsxdev"): the same as jsx-runtime.

import './global-attributes.ts';
import './htmx.ts';

export { Fragment, jsx, jsxs, jsx as jsxDEV } from './index.ts';
