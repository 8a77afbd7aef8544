// Layout checks read from the page as drawn: what sticks out of the window, what overlaps what,
// which targets are too small to hit, and a watch that sees the board's fan slots move at any frame.
import type { Locator, Page } from 'playwright-core';

export interface LayoutProblems {
  /** Elements reaching past the window's left or right edge. */
  overflow: string[];
  /** Pairs of boxes (controls, piles, fan slots, header items) drawn over each other. */
  overlaps: string[];
  /** Controls smaller than 24×24 px, and fans' cards outside their slot. */
  small: string[];
}

/** The smallest target a pointer must be able to hit, px (WCAG 2.2 target size, minimum). */
export const MIN_TARGET = 24;

/**
 * Everything visible is within the window's width; no two controls, piles, fan slots or header
 * items overlap (a fan's own cards overlap by design, inside its slot); every control is at least
 * MIN_TARGET px each way (a checkbox counts with its label, a covered card by the strip it shows).
 */
export function layoutProblems(page: Page): Promise<LayoutProblems> {
  return page.evaluate((minimum) => {
    const describe = (element: Element): string => {
      const text = (element.getAttribute('aria-label') ?? element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      return `${element.tagName.toLowerCase()}${element.className && typeof element.className === 'string' ? `.${element.className.trim().split(/\s+/).join('.')}` : ''} "${text}"`;
    };
    const shown = (element: Element): boolean => {
      const box = element.getBoundingClientRect();
      const style = getComputedStyle(element);
      // Visually hidden text (1 px, clipped) and the skip link parked above the page are not drawn.
      return box.width > 1 && box.height > 1 && style.visibility !== 'hidden' && box.bottom > 0 && element.checkVisibility();
    };
    const width = document.documentElement.clientWidth;
    const overflow = [...document.body.querySelectorAll('*')]
      .filter(shown)
      .filter((element) => {
        const box = element.getBoundingClientRect();
        return box.left < -0.5 || box.right > width + 0.5;
      })
      .map(describe);

    const controls = [...document.querySelectorAll('button, a[href], input, select, summary, textarea')].filter(shown);
    /** What a control's hit box is: a checkbox or radio with its label, a covered card by its visible strip. */
    const hitBox = (element: Element): DOMRect => {
      const label = element.closest('label');
      if (label && element.matches('input[type="checkbox"], input[type="radio"]')) return label.getBoundingClientRect();
      const box = element.getBoundingClientRect();
      const next = element.closest('.fan') ? element.nextElementSibling : null;
      if (next?.classList.contains('card')) return new DOMRect(box.left, box.top, next.getBoundingClientRect().left - box.left, box.height);
      return box;
    };
    const inline = (element: Element): boolean => element.matches('p a, li a, td a') && getComputedStyle(element).display === 'inline';
    const small = controls
      .filter((element) => !inline(element))
      .filter((element) => {
        const box = hitBox(element);
        return box.width < minimum - 0.5 || box.height < minimum - 0.5;
      })
      .map((element) => `${describe(element)} ${Math.round(hitBox(element).width)}×${Math.round(hitBox(element).height)}`);
    for (const fan of document.querySelectorAll('ol.fans > li')) {
      const slot = fan.getBoundingClientRect();
      for (const card of fan.querySelectorAll('.card')) {
        const box = card.getBoundingClientRect();
        if (box.left < slot.left - 0.5 || box.right > slot.right + 0.5) small.push(`${describe(card)} outside ${describe(fan)}`);
      }
    }

    // Boxes that must stand apart: controls (a fan's cards count as their fan's slot), piles, fan slots, header items.
    const boxes = [
      ...controls.filter((element) => !element.closest('ol.fans') && !element.closest('label')),
      ...[...document.querySelectorAll('ol.fans > li, header > *, .bar > *')].filter(shown),
      ...[...document.querySelectorAll('label')].filter(shown),
    ].filter((element, index, all) => all.indexOf(element) === index);
    /** The nearest ancestor that sticks to the screen, if any. */
    const pinned = (element: Element): Element | null => {
      for (let at: Element | null = element; at; at = at.parentElement) if (['sticky', 'fixed'].includes(getComputedStyle(at).position)) return at;
      return null;
    };
    const overlaps: string[] = [];
    for (let i = 0; i < boxes.length; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i]!, boxes[j]!];
        if (a.contains(b) || b.contains(a)) continue;
        // Something laid over the board on purpose (game over, the merci picker, controls that stick to the screen) covers it.
        if (a.closest('.overlay') !== b.closest('.overlay') || pinned(a) !== pinned(b)) continue;
        const [p, q] = [hitBox(a), hitBox(b)];
        const x = Math.min(p.right, q.right) - Math.max(p.left, q.left);
        const y = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
        if (x > 0.5 && y > 0.5) overlaps.push(`${describe(a)} × ${describe(b)}`);
      }
    }
    return { overflow, overlaps, small };
  }, MIN_TARGET);
}

/**
 * Starts watching `board`'s fan slots at every animation frame; `shifts()` returns each time a
 * slot was seen away from where it was first drawn (a redeal leaves fewer fans: those are not
 * moves). Only the fans are watched, so a card flying across the board is no shift.
 */
export async function watchSlots(board: Locator): Promise<{ shifts(): Promise<string[]> }> {
  const handle = await board.evaluateHandle((element) => {
    const first = new Map<number, string>();
    const seen: string[] = [];
    const look = (): void => {
      element.querySelectorAll('ol.fans > li').forEach((fan, index) => {
        const box = fan.getBoundingClientRect();
        const where = `${Math.round(box.left + window.scrollX)},${Math.round(box.top + window.scrollY)}`;
        const was = first.get(index);
        if (was === undefined) first.set(index, where);
        else if (was !== where && seen.length < 20) seen.push(`fan ${index + 1} moved from ${was} to ${where}`);
      });
      if (element.isConnected) requestAnimationFrame(look);
    };
    look();
    return seen;
  });
  return { shifts: () => handle.jsonValue() };
}

export interface TextProblems {
  /** Words of a table cell drawn on more than one line: broken inside the word, not between words. */
  broken: string[];
  /** Cells, header links and the board's status bar whose content is wider or taller than their box (cut, or sticking out). */
  clipped: string[];
}

/**
 * What text the page cuts: a table cell's word split across lines (a heading wraps between its
 * words, never inside one), a cell or a header link narrower than its words, a status bar whose
 * words wrapped below its fixed height. Tables hidden for screen readers only are not drawn.
 */
export function textProblems(page: Page): Promise<TextProblems> {
  return page.evaluate(() => {
    const describe = (element: Element): string => `${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)}"`;
    const shown = (element: Element): boolean => {
      const box = element.getBoundingClientRect();
      return box.width > 1 && box.height > 1 && element.checkVisibility() && !element.closest('.visually-hidden');
    };
    const cells = [...document.querySelectorAll('th, td')].filter(shown);
    const broken: string[] = [];
    for (const cell of cells) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.parentElement || !shown(node.parentElement)) continue;
        for (const word of (node.textContent ?? '').matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, word.index);
          range.setEnd(node, word.index + word[0].length);
          const lines = new Set([...range.getClientRects()].filter((box) => box.width > 0).map((box) => Math.round(box.top)));
          if (lines.size > 1) broken.push(`"${word[0]}" on ${lines.size} lines in ${describe(cell)}`);
        }
      }
    }
    const boxes = [...cells, ...[...document.querySelectorAll('#app > header a, #app > header nav, .board .bar')].filter(shown)];
    const clipped = boxes
      .filter((element) => element.scrollWidth > element.clientWidth + 1 || element.scrollHeight > element.clientHeight + 1)
      .map((element) => `${describe(element)} ${element.scrollWidth}×${element.scrollHeight} in ${element.clientWidth}×${element.clientHeight}`);
    return { broken, clipped };
  });
}
