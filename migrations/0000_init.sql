CREATE TABLE `game_actions` (
	`game_id` integer NOT NULL,
	`action_index` integer NOT NULL,
	`action` text NOT NULL,
	`at` integer NOT NULL,
	PRIMARY KEY(`game_id`, `action_index`),
	FOREIGN KEY (`game_id`) REFERENCES `games`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `game_deals` (
	`game_id` integer NOT NULL,
	`k` integer NOT NULL,
	`layout` text NOT NULL,
	PRIMARY KEY(`game_id`, `k`),
	FOREIGN KEY (`game_id`) REFERENCES `games`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `games` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`player_id` integer NOT NULL,
	`race_id` integer,
	`day` text,
	`variant` text NOT NULL,
	`seed` text NOT NULL,
	`status` text NOT NULL,
	`foundations` integer NOT NULL,
	`redeals_used` integer DEFAULT 0 NOT NULL,
	`moves` integer DEFAULT 0 NOT NULL,
	`started_at` integer NOT NULL,
	`deadline` integer,
	`finished_at` integer,
	FOREIGN KEY (`player_id`) REFERENCES `players`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`race_id`) REFERENCES `races`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `games_race_player` ON `games` (`race_id`,`player_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `games_player_day` ON `games` (`player_id`,`day`);--> statement-breakpoint
CREATE INDEX `games_playing` ON `games` (`status`) WHERE "games"."status" = 'playing';--> statement-breakpoint
CREATE TABLE `players` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`name` text NOT NULL,
	`token_hash` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `players_token_hash_unique` ON `players` (`token_hash`);--> statement-breakpoint
CREATE TABLE `race_entries` (
	`race_id` integer NOT NULL,
	`player_id` integer NOT NULL,
	`seat` integer NOT NULL,
	`joined_at` integer NOT NULL,
	`rank` integer,
	PRIMARY KEY(`race_id`, `player_id`),
	FOREIGN KEY (`race_id`) REFERENCES `races`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`player_id`) REFERENCES `players`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `race_entries_seat` ON `race_entries` (`race_id`,`seat`);--> statement-breakpoint
CREATE TABLE `races` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`code` text NOT NULL,
	`variant` text NOT NULL,
	`seats` integer NOT NULL,
	`time_limit_seconds` integer,
	`seed` text NOT NULL,
	`state` text NOT NULL,
	`creator_id` integer NOT NULL,
	`created_at` integer NOT NULL,
	`starts_at` integer,
	`finished_at` integer,
	FOREIGN KEY (`creator_id`) REFERENCES `players`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `races_code_unique` ON `races` (`code`);