// Data schemas of CCCS v1 event kinds (one file per kind family). Filled by the ledger issue.
export {};
