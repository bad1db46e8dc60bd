// How a Node process that runs the project's server code outside Next starts: TypeScript through tsx,
// and the `react-server` export condition, under which `server-only` (the mark on every module that
// touches the database) is an empty module, as in Next's server build. The condition changes nothing
// else these processes load: of the installed packages only react, react-dom, client-only and
// react-redux have a react-server export, and neither the worker nor the scripts import them.
// package.json's scripts and the Playwright web server spell out the same flags.
export const SERVER_NODE_ARGS = ['--conditions=react-server', '--import', 'tsx'];
