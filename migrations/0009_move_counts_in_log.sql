-- A move writes its log row alone: the cards home after each action live in that row, and a
-- playing game's counts are read from its log. Rows stored before this keep null (the game's
-- own counts, written with every move until then, stand for them).
ALTER TABLE `game_actions` ADD `foundations` integer;
