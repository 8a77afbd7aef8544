/// <reference types="svelte" />
/// <reference types="vite/client" />

/** A compiled message catalogue (vite-messages.ts): key → plain text, or ICU elements. */
declare module 'virtual:messages/*' {
  const catalogue: Readonly<Record<string, string | import('@formatjs/icu-messageformat-parser').MessageFormatElement[]>>;
  export default catalogue;
}

/** Each locale's app catalogue by part (vite-messages.ts): `shell`, each route's, and `NAME-later` (what a page draws after its first paint). */
declare module 'virtual:messages/words' {
  type Catalogue = Readonly<Record<string, string | import('@formatjs/icu-messageformat-parser').MessageFormatElement[]>>;
  const words: Readonly<Record<string, Readonly<Record<string, (() => Promise<{ default: Catalogue }>) | undefined>>>>;
  export default words;
}
