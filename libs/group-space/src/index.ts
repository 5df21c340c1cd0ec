// Not started yet: this package is built by a later issue (IPC §8.18). It exports nothing until then.
export {};
