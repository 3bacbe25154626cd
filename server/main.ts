// Entry point: `node dist/server/main.js [options]`. Exit codes: 0 clean, 1 start-up failure, 2 bad usage.
// Loads no test hooks (those enter through server/testing/).

// graphql-js picks its type checks when it loads: outside production each one that answers false also
// looks for a second copy of graphql-js, on every request. The service is the production build unless
// told otherwise, so the flag is set before anything imports graphql (hence the dynamic import).
process.env['NODE_ENV'] ??= 'production';
const { runAsProcess, serve } = await import('./serve.js');
runAsProcess(serve());
