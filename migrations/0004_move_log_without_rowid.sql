-- The move log keyed by its primary key alone (WITHOUT ROWID): one B-tree instead of a rowid
-- table plus the index behind its composite key, so each move writes one page fewer to the WAL.
CREATE TABLE `game_actions_keyed` (
	`game_id` integer NOT NULL,
	`action_index` integer NOT NULL,
	`action` text NOT NULL,
	`at` integer NOT NULL,
	PRIMARY KEY(`game_id`, `action_index`),
	FOREIGN KEY (`game_id`) REFERENCES `games`(`id`) ON UPDATE no action ON DELETE no action
) WITHOUT ROWID;
--> statement-breakpoint
INSERT INTO `game_actions_keyed` (`game_id`, `action_index`, `action`, `at`) SELECT `game_id`, `action_index`, `action`, `at` FROM `game_actions`;
--> statement-breakpoint
DROP TABLE `game_actions`;
--> statement-breakpoint
ALTER TABLE `game_actions_keyed` RENAME TO `game_actions`;
