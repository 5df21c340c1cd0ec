// Not started yet: this package is built by issue 6 (PTY runtime). It exports nothing until then.
export {};
