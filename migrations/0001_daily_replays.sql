CREATE TABLE `daily_tallies` (
	`day` text NOT NULL,
	`foundations` integer NOT NULL,
	`finished` integer NOT NULL,
	PRIMARY KEY(`day`, `foundations`)
);
--> statement-breakpoint
CREATE TABLE `secrets` (
	`name` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `games` ADD `rank_key` integer;--> statement-breakpoint
CREATE INDEX `games_daily_board` ON `games` (`day`,`rank_key`) WHERE "games"."day" is not null;--> statement-breakpoint
CREATE INDEX `games_player` ON `games` (`player_id`);