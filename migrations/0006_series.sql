CREATE TABLE `series` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`variant` text NOT NULL,
	`seed` text NOT NULL,
	`creator_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`creator_id`) REFERENCES `players`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `series_code_unique` ON `series` (`code`);--> statement-breakpoint
ALTER TABLE `games` ADD `series_id` integer REFERENCES series(id);--> statement-breakpoint
ALTER TABLE `games` ADD `series_deal` integer;--> statement-breakpoint
CREATE UNIQUE INDEX `games_series_player_deal` ON `games` (`series_id`,`player_id`,`series_deal`);