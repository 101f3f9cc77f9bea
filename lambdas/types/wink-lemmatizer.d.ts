/** wink-lemmatizer ships no types: WordNet's morphy for English words, base form or the word unchanged. */
declare module 'wink-lemmatizer' {
  const lemmatizer: {
    noun(word: string): string;
    verb(word: string): string;
    adjective(word: string): string;
  };
  export default lemmatizer;
}
