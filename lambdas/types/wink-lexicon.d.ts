/** wink-lexicon ships no types: WordNet's exception lists, each an inflected form to its base form. */
declare module 'wink-lexicon/src/wn-verb-exceptions.js' {
  const exceptions: Readonly<Record<string, string>>;
  export default exceptions;
}
declare module 'wink-lexicon/src/wn-noun-exceptions.js' {
  const exceptions: Readonly<Record<string, string>>;
  export default exceptions;
}
/** Each English word wink-lexicon knows, with its part-of-speech tags (Penn Treebank), its most common use first. */
declare module 'wink-lexicon/src/lexicon.js' {
  const lexicon: Readonly<Record<string, readonly string[]>>;
  export default lexicon;
}
