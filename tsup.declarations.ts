// Type declarations are for the library/publish build (`npm run build`, `npm test`); running
// CCCC needs none of them, and tsup's dts step is most of a build's time. `npm start` sets
// CCCC_BUILD_DTS=0 (tools/start.mjs); nx.json lists the variable among the build inputs, so the
// two kinds of dist/ are cached apart and never restored in place of each other.
export function declarations<T>(value: T): T | false {
  return process.env.CCCC_BUILD_DTS === '0' ? false : value;
}
