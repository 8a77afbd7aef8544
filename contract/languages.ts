// Which of the languages Lucie offers a browser asked for: the server reads an Accept-Language
// header (to send a page's copy in that language), the client reads navigator.languages (to pick
// its catalogue); both must agree, so a first visit's words come in the language the page shows.

/** The language a tag names, as the catalogues are named: `fr-CA` and `FR` are both `fr`. */
export const languageOf = (tag: string): string => tag.trim().toLowerCase().split('-')[0]!;

/** The first tag of `asked` (the most wanted first) whose language is `offered`, as that language. */
export function firstOffered<Language extends string>(asked: readonly string[], offered: readonly Language[]): Language | undefined {
  for (const tag of asked) {
    const language = languageOf(tag);
    if ((offered as readonly string[]).includes(language)) return language as Language;
  }
  return undefined;
}

/** An Accept-Language header's tags, the most wanted first (by weight, then order), without those refused (`q=0`). */
export function acceptedLanguages(header: string | undefined): string[] {
  return (header ?? '')
    .split(',')
    .map((item, order) => {
      const [tag = '', ...params] = item.split(';');
      const weight = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find((q) => q !== undefined);
      return { tag: tag.trim(), weight: weight === undefined ? 1 : Number(weight), order };
    })
    .filter((item) => item.tag !== '' && item.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.order - b.order)
    .map((item) => item.tag);
}
