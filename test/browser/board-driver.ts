// Plays a board through the UI the way a person would (click, drag or keyboard), keeping an
// engine copy of the game to choose legal moves and to check what the board shows.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import {
  cardName,
  destinations,
  makeAction,
  oneClickDestination,
  Position,
  sourceOf,
  suitName,
  suitOf,
  targetOf,
  type Action,
  type Card,
  type Layout,
  type Target,
  type VariantId,
} from '../../shared/index.js';
import { homeFirst, unwrap } from '../support/mirror.js';
import { readFans } from './helpers.js';

/** Where a person grabs a covered card: the strip of it that shows. */
const STRIP = { x: 4, y: 12 };

export type Gesture = 'click' | 'drag' | 'keyboard';

export class BoardDriver {
  readonly position: Position;
  /** The actions played, in record notation. */
  readonly actions: string[] = [];
  moves = 0;

  constructor(
    readonly page: Page,
    /** The board's accessible name. */
    readonly name: string,
    variant: VariantId,
    layout: Layout,
  ) {
    this.position = unwrap(Position.start(variant, layout));
  }

  next(): Action | undefined {
    return homeFirst(this.position);
  }

  region(): Locator {
    return this.page.getByRole('region', { name: this.name });
  }

  fans(): Promise<Card[][]> {
    return readFans(this.page, this.name);
  }

  card(card: Card): Locator {
    return this.region().getByRole('button', { name: cardName(card), exact: true });
  }

  fan(fan: number): Locator {
    return this.region().locator('ol.fans > li').nth(fan);
  }

  foundation(suit: number): Locator {
    return this.region().getByRole('button', { name: new RegExp(`^${suitName(suit)} foundation`) });
  }

  message(): Promise<string | null> {
    return this.region().getByRole('status').textContent();
  }

  /** Where a card is dropped or clicked to reach `target`. */
  target(target: Target, card: Card): Locator {
    if (target.kind === 'foundation') return this.foundation(suitOf(card));
    if (target.kind === 'fan') return this.fan(target.fan).locator('.card').last();
    return this.region().getByRole('button', { name: new RegExp(`^Cell ${target.cell + 1}:`) });
  }

  /** Drags `from` onto `to`, holding `from` at `grip` (its centre unless given: a covered card shows only its left strip). */
  async drag(from: Locator, to: Locator, grip?: { x: number; y: number }): Promise<void> {
    // Aim where the cards have landed, not where a running animation happens to show them.
    await this.page.waitForFunction(() => document.getAnimations().length === 0);
    // The mouse moves in the viewport: bring the whole board into it, foundations included.
    await this.region().evaluate((board) => board.scrollIntoView({ block: 'start' }));
    const source = (await from.boundingBox())!;
    const target = (await to.boundingBox())!;
    const { mouse } = this.page;
    const x = source.x + (grip?.x ?? source.width / 2);
    const y = source.y + (grip?.y ?? source.height / 2);
    await mouse.move(x, y);
    await mouse.down();
    await mouse.move(x + 12, y + 12, { steps: 3 });
    await mouse.move(target.x + target.width / 2, target.y + target.height / 2, { steps: 8 });
    await mouse.up();
  }

  /** How wide the visible strip of a covered card is, px: up to the next card of its fan. */
  strip(card: Locator): Promise<number> {
    return card.evaluate((element) => (element.nextElementSibling as HTMLElement).getBoundingClientRect().left - element.getBoundingClientRect().left);
  }

  /** The smallest side of each merci-picker card, px, seen each time the picker was used. */
  readonly pickerTargets: number[] = [];

  /** Picks `card` in the merci picker, which must be open; `choose` says the card waits for its destination. */
  async pickInPicker(card: Card, choose: boolean): Promise<void> {
    const picker = this.region().getByRole('group', { name: /^Merci: the covered cards of fan/ });
    await picker.waitFor();
    const sizes = await picker.locator('.choices > button').evaluateAll((buttons) => buttons.map((button) => Math.min(button.getBoundingClientRect().width, button.getBoundingClientRect().height)));
    this.pickerTargets.push(...sizes);
    await picker.getByRole('button', { name: cardName(card), exact: true }).click();
    await picker.waitFor({ state: 'detached' });
    if (choose) await expect.poll(() => this.card(card).getAttribute('aria-pressed')).toBe('true');
  }

  /** Plays `action` through the UI, then checks the board shows the engine's position. */
  async play(action: Action, gesture: Gesture): Promise<void> {
    if (action.type === 'redeal') {
      const left = this.position.status().redealsLeft;
      await this.region().getByRole('button', { name: 'Redeal' }).click();
      await expect.poll(() => this.region().locator('.bar').textContent()).toContain(`Redeals left ${left - 1}`);
      const layout = await this.fans();
      expect(this.position.problem(action, layout)).toBeUndefined(); // exactly the gathered cards, dealt in fans of 3
      this.position.play(action, layout);
    } else {
      const source = sourceOf(action)!;
      const target = targetOf(action)!;
      const card = source.kind === 'fan' ? this.position.topCard(source.fan)! : source.kind === 'cell' ? this.position.cells[source.cell]! : source.card;
      const oneClick = oneClickDestination(destinations(this.position.legalActions(), source));
      // A click (or Enter) plays the one sensible destination; any other destination is chosen after a pick.
      const direct = oneClick !== undefined && makeAction(oneClick.action) === makeAction(action);
      const from = this.card(card);
      if (gesture === 'click' && !direct && oneClick !== undefined) {
        // A click would play the sensible destination instead: a person drags the card where they want it.
        await this.drag(from, this.target(target, card), source.kind === 'buried' ? STRIP : undefined);
      } else if (gesture === 'drag') {
        await this.drag(from, this.target(target, card));
      } else if (gesture === 'click') {
        // A covered card shows only its left strip: that is where a person clicks it.
        const narrow = source.kind === 'buried' && (await this.strip(from)) < 24;
        await from.click(source.kind === 'buried' ? { position: STRIP } : undefined);
        // Too narrow a strip opens the merci picker: the card is picked there, shown whole.
        if (narrow) await this.pickInPicker(card, !direct);
        if (!direct) await this.target(target, card).click();
      } else {
        if (source.kind !== 'fan' || target.kind === 'cell') throw new Error(`no keyboard walk for ${makeAction(action)}`);
        // The fans are one tab stop: arrows walk to the source, Enter picks, Enter on the destination drops.
        await this.region().locator('ol.fans [tabindex="0"]').first().focus();
        await this.page.keyboard.press('Home');
        for (let i = 0; i < source.fan; i++) await this.page.keyboard.press('ArrowRight');
        await expect.poll(() => from.evaluate((element) => element === document.activeElement)).toBe(true);
        await this.page.keyboard.press(direct ? 'Enter' : 'Shift+Enter');
        if (!direct) {
          if (target.kind === 'foundation') {
            await this.foundation(suitOf(card)).focus();
          } else {
            const step = target.fan > source.fan ? 'ArrowRight' : 'ArrowLeft';
            for (let i = 0; i < Math.abs(target.fan - source.fan); i++) await this.page.keyboard.press(step);
          }
          await this.page.keyboard.press('Enter');
        }
      }
      this.position.play(action);
    }
    this.moves++;
    this.actions.push(makeAction(action));
    await expect.poll(() => this.fans()).toEqual(this.position.fans);
  }
}
