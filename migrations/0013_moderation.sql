CREATE TABLE `game_fair_play` (
	`game_id` integer PRIMARY KEY NOT NULL,
	`player_id` integer NOT NULL,
	`judged` integer NOT NULL,
	`kept` integer NOT NULL,
	`median_ms` integer,
	`spread_ms` integer,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`game_id`) REFERENCES `games`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `game_fair_play_player` ON `game_fair_play` (`player_id`);--> statement-breakpoint
CREATE TABLE `operator_actions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`operator` text NOT NULL,
	`action` text NOT NULL,
	`target_id` integer NOT NULL,
	`detail` text NOT NULL,
	`at` integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE `reports` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`reporter_id` integer NOT NULL,
	`target_id` integer NOT NULL,
	`reason` text NOT NULL,
	`created_at` integer NOT NULL,
	`resolved_at` integer,
	FOREIGN KEY (`target_id`) REFERENCES `players`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `reports_reporter_target` ON `reports` (`reporter_id`,`target_id`);--> statement-breakpoint
CREATE INDEX `reports_target` ON `reports` (`target_id`,`resolved_at`);--> statement-breakpoint
CREATE INDEX `reports_reporter_created` ON `reports` (`reporter_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `games` ADD `unlisted_rank_key` integer;--> statement-breakpoint
ALTER TABLE `players` ADD `banned_at` integer;