// The GraphiQL page's HTML (served by graphiql-route.ts). Every URL in it is relative, so the page works
// at /graphql, at / and behind a proxy's path prefix; nothing loads from another origin.

/** Where the page finds its scripts and styles (relative URLs, versioned: graphiql-route.ts). */
export interface PageAssets {
  readonly react: string;
  readonly reactDom: string;
  readonly graphiql: string;
  readonly graphiqlCss: string;
  readonly explorer: string;
  readonly explorerCss: string;
}

/**
 * Starts GraphiQL: queries and mutations are POSTed to the endpoint beside the page (`graphql`, so the
 * page at `/` uses `/graphql` too), subscriptions go over graphql-transport-ws on the same path
 * (ws: or wss: as the page was loaded). The headers pane's entries (X-Auth-Token, the JWT header) go
 * with every request and, for subscriptions, in `connection_init`, which the server reads as headers.
 */
export const startScript = `
const endpoint = new URL('graphql', location.href);
const fetcher = GraphiQL.createFetcher({
  url: endpoint.href,
  subscriptionUrl: endpoint.href.replace(/^http/, 'ws'),
});
ReactDOM.createRoot(document.getElementById('graphiql')).render(
  React.createElement(GraphiQL, {
    fetcher,
    plugins: [GraphiQLPluginExplorer.explorerPlugin()],
    isHeadersEditorEnabled: true,
  }),
);
`;

export function pageHtml(assets: PageAssets): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>GraphiQL</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${assets.graphiqlCss}">
<link rel="stylesheet" href="${assets.explorerCss}">
<style>html, body, #graphiql { height: 100%; margin: 0; }</style>
</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
<script src="${assets.react}"></script>
<script src="${assets.reactDom}"></script>
<script src="${assets.graphiql}"></script>
<script src="${assets.explorer}"></script>
<script>${startScript}</script>
</body>
</html>
`;
}
