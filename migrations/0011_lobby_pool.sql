CREATE TABLE `pool_entries` (
	`player_id` integer PRIMARY KEY NOT NULL,
	`variant` text NOT NULL,
	`rating` integer,
	`joined_at` integer NOT NULL,
	`race_id` integer,
	FOREIGN KEY (`player_id`) REFERENCES `players`(`id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`race_id`) REFERENCES `races`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `pool_entries_variant` ON `pool_entries` (`variant`,`joined_at`);--> statement-breakpoint
ALTER TABLE `races` ADD `listed` integer DEFAULT false NOT NULL;