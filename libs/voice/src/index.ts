// Not started yet: this package is built by a later issue (assistant_* ops). It exports nothing until then.
export {};
