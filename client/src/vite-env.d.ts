/// <reference types="svelte" />
/// <reference types="vite/client" />

/** A compiled message catalogue (vite-messages.ts): key → plain text, or ICU elements. */
declare module 'virtual:messages/*' {
  const catalogue: Readonly<Record<string, string | import('@formatjs/icu-messageformat-parser').MessageFormatElement[]>>;
  export default catalogue;
}
