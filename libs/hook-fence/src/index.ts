// Not started yet: this package is built by issue 7 (Hook activity). It exports nothing until then.
export {};
