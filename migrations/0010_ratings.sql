-- Ratings (server/ratings/): a rated flag on races, one OpenSkill rating per player and variant,
-- the races whose ratings are applied (once each), and every racer's rating before and after each.
CREATE TABLE `rated_races` (
	`race_id` integer PRIMARY KEY NOT NULL,
	`applied_at` integer NOT NULL,
	FOREIGN KEY (`race_id`) REFERENCES `races`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `rating_changes` (
	`race_id` integer NOT NULL,
	`player_id` integer NOT NULL,
	`variant` text NOT NULL,
	`mu_before` real NOT NULL,
	`sigma_before` real NOT NULL,
	`mu_after` real NOT NULL,
	`sigma_after` real NOT NULL,
	`at` integer NOT NULL,
	PRIMARY KEY(`race_id`, `player_id`),
	FOREIGN KEY (`race_id`) REFERENCES `races`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`player_id`) REFERENCES `players`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `rating_changes_player` ON `rating_changes` (`player_id`,`at`);--> statement-breakpoint
CREATE TABLE `ratings` (
	`player_id` integer NOT NULL,
	`variant` text NOT NULL,
	`mu` real NOT NULL,
	`sigma` real NOT NULL,
	`games` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`player_id`, `variant`),
	FOREIGN KEY (`player_id`) REFERENCES `players`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `ratings_board` ON `ratings` (`variant`,`mu`);--> statement-breakpoint
ALTER TABLE `races` ADD `rated` integer DEFAULT false NOT NULL;