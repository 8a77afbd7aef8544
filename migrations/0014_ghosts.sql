ALTER TABLE `games` ADD `ghost_of` integer REFERENCES games(id);--> statement-breakpoint
ALTER TABLE `games` ADD `redeal_from` integer;