// Not started yet: this package is built by issue 8 (Web). It exports nothing until then.
export {};
