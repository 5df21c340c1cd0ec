// Not started yet: this package is built by issue 4 (Groups, scopes, actors and messaging). It exports nothing until then.
export {};
