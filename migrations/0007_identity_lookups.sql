CREATE INDEX `players_created` ON `players` (`created_at`);--> statement-breakpoint
CREATE INDEX `race_entries_player` ON `race_entries` (`player_id`);--> statement-breakpoint
CREATE INDEX `races_creator` ON `races` (`creator_id`);--> statement-breakpoint
CREATE INDEX `series_creator` ON `series` (`creator_id`);