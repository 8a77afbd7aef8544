// How each language's words are cut into parts, named once for the three that meet on it:
// vite-message-use.ts cuts them at build time, i18n.svelte.ts fetches them, and the page-preload
// plugin names a page's parts in its copy of index.html so the browser fetches them beside the shell.

/** The words of the app's frame and of what most pages show at once, fetched before any page. */
export const SHELL_PART = 'shell';
/** The words several pages draw after their first paint (the board, the replayer): one part for all. */
export const SHARED_LATER_PART = 'later';
/** The words page `name` draws after its first paint, but those of SHARED_LATER_PART. */
export const laterPart = (name: string): string => `${name}-later`;
/** Beyond the shell's, the parts page `name` wants: its first paint's, then what it draws later. */
export const pageParts = (name: string): string[] => [name, laterPart(name), SHARED_LATER_PART];
