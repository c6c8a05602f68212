// The development JSX runtime ("jsx": "react-jsxdev"): the same as jsx-runtime.

import './htmx';

export { Fragment, jsxDEV, jsxs } from '@kitajs/html/jsx-dev-runtime';
export { jsx } from '@kitajs/html/jsx-runtime';
