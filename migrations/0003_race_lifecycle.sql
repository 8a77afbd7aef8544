ALTER TABLE `race_entries` ADD `gone_since` integer;--> statement-breakpoint
ALTER TABLE `race_entries` ADD `rematch` text;--> statement-breakpoint
ALTER TABLE `races` ADD `lobby_closes_at` integer;--> statement-breakpoint
ALTER TABLE `races` ADD `cap_at` integer;--> statement-breakpoint
ALTER TABLE `races` ADD `closed_reason` text;--> statement-breakpoint
ALTER TABLE `races` ADD `rematch_of` integer;