// `@cccc/web/defaults`: where the Web listens unless told otherwise. Its own entry, so the CLI can
// show these in its help without loading the Web server.
export const DEFAULT_WEB_HOST = '127.0.0.1';
export const DEFAULT_WEB_PORT = 8848;
